#pragma once
// Settings of the CSA server (`shogi-arena serve`) and what it reports about each finished game.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "csa/league/floodgate_group.h"
#include "csa/league/ratings.h"
#include "rules/types.h"

namespace arena::csa {

// One finished game, as the server saw it.
struct CsaFinishedGame {
  std::string game_id;
  std::string game_name;
  std::string names[shogi::COLOR_NB];  // black, white (login names)
  std::string start_sfen;              // before the Position block's moves
  std::vector<std::string> moves;      // CSA tokens, the Position block's moves first
  std::vector<int64_t> times_s;        // the T echoed for each move (1 for the Position block's)
  size_t initial_moves = 0;            // how many of `moves` came with the Position block
  std::string end_type;                // shogi-server's results-list type: "toryo", "time up", "sennichite", ...
  std::string end_reason;              // the reason line sent: "#RESIGN", "#TIME_UP", ... ("#CHUDAN" when stopped)
  std::optional<shogi::Color> winner;  // none for a draw, #CENSORED or #CHUDAN
  std::string detail;                  // why, when there is more to say (an illegal move's reason, ...)
  std::filesystem::path record_path;   // empty when records are not written
  std::chrono::system_clock::time_point start_time{};
  std::chrono::system_clock::time_point end_time{};
};

// A game on the server as a live view follows it: sent when it starts and after each move (on_game_progress).
struct CsaGameProgress {
  std::string game_id;
  std::string game_name;               // e.g. "testgame-300-10F"
  std::string names[shogi::COLOR_NB];  // black, white (login names)
  std::string start_sfen;              // before the Position block's moves
  std::vector<shogi::Move> moves;      // every move so far, the Position block's first
  std::vector<int64_t> times_s;        // the T echoed for each (1 for the Position block's)
  std::vector<std::string> comments;   // for each, the Floodgate comment the mover sent ("'** 30 -3334FU"), or ""
  size_t initial_moves = 0;            // how many of `moves` came with the Position block
  int64_t remaining_ms[shogi::COLOR_NB] = {0, 0};  // main time left
  shogi::Color to_move = shogi::BLACK;
  int total_s = 0, byoyomi_s = 0, increment_s = 0;  // the game's clock
};

// The Floodgate groups and their ratings, as a live view shows them (on_league).
struct CsaLeagueView {
  struct Group {
    std::string name;
    std::string schedule;  // "every 30 minutes (:00 and :30)", ...
    std::optional<std::chrono::system_clock::time_point> next_pairing;
    int waiting = 0;
    int rounds = 0;
    std::chrono::system_clock::time_point last_round_time{};
    std::vector<std::string> last_round;  // the last round's decisions, as logged
  };
  std::vector<Group> groups;
  std::vector<league::LeaguePlayer> ratings;  // the server's own (empty when pairing by a --players file)
};

struct CsaServerConfig {
  std::string listen_address = "127.0.0.1";
  uint16_t port = 4081;         // 0: an ephemeral port (CsaServer::port() says which)
  std::string event = "local";  // the first part of every Game_ID, like shogi-server's event_name argument
  int max_moves = 256;          // Max_Moves; 0: no limit
  int least_time_per_move = 0;  // Least_Time_Per_Move in seconds (Floodgate 0; the old CSA rule 1)
  int max_identifier = 32;      // longest player name / game id (shogi-server --max-identifier)
  int agree_timeout_s = 120;    // a game not agreed by both after this is rejected "by the Server (timed out)"
  int login_timeout_s = 300;    // a connection that has not logged in after this is dropped

  // Output: CSA records as <output_dir>/YYYY/MM/DD/<Game_ID>.csa and the results list (shogi-server's 00LIST
  // format) in results_file (default <output_dir>/00LIST). Empty output_dir: nothing is written.
  std::filesystem::path output_dir;
  std::filesystem::path results_file;
  // Server log (connections, logins, games, dropped clients); with log_traffic also every line in and out
  // (LOGIN passwords masked). Empty: no log.
  std::filesystem::path log_file;
  bool log_traffic = false;

  // Robustness. A connection is dropped, without disturbing anyone else, when a line (without its LF) is longer
  // than max_line_length, when it contains control characters other than TAB and CR, when it sends more than
  // max_line_burst lines faster than max_lines_per_second, when max_consecutive_errors lines in a row are
  // answered with an error (##[ERROR] or LOGIN:incorrect), or when more than max_pending_output bytes wait to be
  // sent to it (a client that does not read).
  int max_connections = 1000;
  size_t max_line_length = 4096;
  int max_lines_per_second = 100;
  int max_line_burst = 400;
  int max_consecutive_errors = 16;
  size_t max_pending_output = size_t(1) << 20;

  // Floodgate groups (`--floodgate`): a player who asks for one of these game names (CSA mode `LOGIN name
  // <game name>,<trip>`, or x1 `%%GAME <game name> *`) waits for the group's next pairing time, when everyone
  // waiting is paired at once by the group's pairing factory; the games are played with the group's settings.
  // Other game names, Floodgate-shaped or not, pair the first two players who ask, at once.
  std::vector<league::FloodgateGroupConfig> floodgate_groups;
  // Ratings kept elsewhere (shogi-server's players.yaml of an existing Floodgate), read before each round for the
  // pairing. When empty, the groups' ratings are this server's own: computed as mk_rate does from the results list
  // at start, before each round and when a round's last game ends, and written to <output_dir>/players.yaml and
  // <output_dir>/ratings.json (no ratings without output_dir).
  std::filesystem::path players_file;
  league::LeagueRatingOptions rating;

  // Optional: the start of a game by its game name ("startpos" or "sfen <sfen>", either optionally followed by
  // "moves <usi>..."), e.g. an opening for a tournament. Moves are sent in the Position block as "<move>,T1" and
  // not charged, like shogi-server's buoy games. nullopt (or no function): the standard start (handicap game
  // names keep their own start).
  std::function<std::optional<std::string>(const std::string& game_name)> position_for;
  // Optional: called on the server thread after each finished game (records already written).
  std::function<void(const CsaFinishedGame&)> on_game_finished;
  // Optional: called on the server thread when a game starts and after each of its moves; it must return at once.
  std::function<void(const CsaGameProgress&)> on_game_progress;
  // Optional: called on the server thread when the Floodgate groups change (a player waits or leaves, a round,
  // new ratings); it must return at once.
  std::function<void(const CsaLeagueView&)> on_league;
};

}  // namespace arena::csa
