#pragma once
// The parameters of an SPSA run, in the forms people already have:
//
//   a params file, one parameter per line, in either form people have:
//       name,start,min,max,c_end,r_end            fishtest's, as Stockfish's (and YaneuraOu's) TUNE build prints
//                                                 it: int when start, min and max are whole numbers, else float
//       name,int,start,min,max,c_end,r_end        OpenBench's, typed (or float)
//     r_end may be left out (0.002);
//     blank lines and comments ('#' to the end of the line, or a line starting with "//") are skipped;
//   --param NAME=START,MIN,MAX,C_END[,R_END] on the command line: int when START, MIN and MAX are whole numbers,
//     float otherwise.
//
// Every parameter is checked: MIN < MAX, START within them, C_END and R_END positive, a name used once (names are
// matched case-insensitively, as USI option names are). An error is one line naming the file and line, or the
// option, and what was expected.

#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "stats/spsa.h"

namespace arena::config {

// One line of a params file (without its comment); `where` ("params.txt:3") starts the error.
std::expected<stats::SpsaParam, std::string> parse_spsa_param_line(std::string_view line);
// NAME=START,MIN,MAX,C_END[,R_END].
std::expected<stats::SpsaParam, std::string> parse_spsa_param_option(std::string_view text);
// The text of a params file; `name` is the file's name in errors.
std::expected<std::vector<stats::SpsaParam>, std::string> parse_spsa_params(std::string_view text,
                                                                            const std::string& name);
std::expected<std::vector<stats::SpsaParam>, std::string> load_spsa_params(const std::string& path);

// Checks a parameter's numbers and that no two parameters share a name; the error names the parameter.
std::expected<void, std::string> check_spsa_params(const std::vector<stats::SpsaParam>& params);

// A params file line for a parameter with `start` replacing its start (the tuned values: to continue or narrow a
// run): "name,int,start,min,max,c_end,r_end".
std::string spsa_param_line(const stats::SpsaParam& param, double start);

}  // namespace arena::config
