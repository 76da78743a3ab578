#pragma once
// Local-time stamps, one way for every writer: the records' dates, the CSA server's Game_IDs and logs, the client's
// protocol log, the cluster console. Reentrant (localtime_r): log writers call it from several threads.

#include <chrono>
#include <string>

namespace arena::output {

// `t` in local time by strftime's `format` ("%Y-%m-%d %H:%M:%S"), with ".mmm" appended when `millis` is set.
std::string format_local_time(std::chrono::system_clock::time_point t, const char* format, bool millis = false);

// "YYYY/MM/DD HH:MM:SS" in local time, as CSA and KIF records write their dates (our kifu and the CSA server's
// records); empty for an unset time point.
std::string record_time_text(std::chrono::system_clock::time_point t);

}  // namespace arena::output
