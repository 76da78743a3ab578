#include "analysis/source_games.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "game/move_timing.h"
#include "journal/merge.h"
#include "openings/openings.h"
#include "output/record_common.h"
#include "output/result_json.h"
#include "rules/game_end.h"

namespace arena::analysis {

namespace {

namespace fs = std::filesystem;

std::expected<std::int64_t, std::string> parse_number(std::string_view text) {
  std::int64_t n = 0;
  std::string not_number = "'";
  not_number.append(text).append("' is not a game number");
  if (text.empty() || text.size() > 12) return std::unexpected(not_number);
  for (char c : text) {
    if (c < '0' || c > '9') return std::unexpected(not_number);
    n = n * 10 + (c - '0');
  }
  if (n < 1) return std::unexpected("game numbers start at 1");
  return n;
}

std::string lower_extension(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

std::expected<std::string, std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(path + ": cannot read it");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The game's moves replayed from its position ("startpos moves ..." or "sfen ... moves ..."), into `game`.
std::expected<void, std::string> replay(const std::string& position, PlayedGame& game) {
  shogi::GameRecord record;
  if (auto r = record.start(position); !r) return std::unexpected(r.error());
  game.start_sfen = record.start_sfen();
  for (shogi::Move m : record.moves()) {
    MoveRecord mr;
    mr.move = m;
    game.moves.push_back(mr);
  }
  return {};
}

shogi::Color mover_of(const PlayedGame& game, size_t move) {
  return move % 2 == 0 ? game::side_to_move(game.start_sfen) : ~game::side_to_move(game.start_sfen);
}

// A record's own score of move `move` (the mover's view). A mate is written as +-30000 whatever its distance.
void set_own_score(PlayedGame& game, size_t move, int score) {
  SearchInfo& info = game.moves[move].info;
  if (std::abs(score) >= record::MATE_SCORE)
    info.score_mate = score > 0 ? UNKNOWN_MATE_DISTANCE : -UNKNOWN_MATE_DISTANCE;
  else
    info.score_cp = score;
}

void set_result(PlayedGame& game, Outcome outcome, Termination termination) {
  game.result.outcome = outcome;
  game.result.termination = termination;
}

Outcome win_for(shogi::Color c) { return c == shogi::BLACK ? Outcome::BlackWin : Outcome::WhiteWin; }

// A record's game before its names, times and result are read: its moves replayed from `position`.
std::expected<SourceGame, std::string> record_game(const std::string& position, const std::string& name) {
  SourceGame out;
  out.source = name;
  PlayedGame& game = out.played;
  game.names[shogi::BLACK] = "black";
  game.names[shogi::WHITE] = "white";
  if (auto r = replay(position, game); !r) return std::unexpected(name + ": " + r.error());
  return out;
}

// A CSA ending, with the side to move after the last move.
void csa_ending(std::string_view ending, shogi::Color to_move, PlayedGame& game) {
  if (ending == "%TORYO") return set_result(game, win_for(~to_move), Termination::Resign);
  if (ending == "%TSUMI") return set_result(game, win_for(~to_move), Termination::Checkmate);
  if (ending == "%TIME_UP") return set_result(game, win_for(~to_move), Termination::TimeForfeit);
  if (ending == "%ILLEGAL_MOVE") return set_result(game, win_for(~to_move), Termination::IllegalMove);
  if (ending == "%+ILLEGAL_ACTION") return set_result(game, Outcome::WhiteWin, Termination::IllegalMove);
  if (ending == "%-ILLEGAL_ACTION") return set_result(game, Outcome::BlackWin, Termination::IllegalMove);
  if (ending == "%KACHI") return set_result(game, win_for(to_move), Termination::Declaration);
  if (ending == "%SENNICHITE") return set_result(game, Outcome::Draw, Termination::Sennichite);
  if (ending == "%OUTE_SENNICHITE") return set_result(game, win_for(to_move), Termination::PerpetualCheck);
  if (ending == "%MAX_MOVES") return set_result(game, Outcome::Draw, Termination::MaxMoves);
  if (ending == "%HIKIWAKE" || ending == "%JISHOGI") return set_result(game, Outcome::Draw, Termination::Adjudication);
  set_result(game, Outcome::None, Termination::Interrupted);
}

std::expected<SourceGame, std::string> csa_game(const std::vector<std::string>& statements, std::string_view text,
                                                const std::string& name) {
  auto openings = openings::parse_csa_openings(text, name, 0);
  if (!openings) return std::unexpected(openings.error());
  auto out = record_game(openings->front().position, name);
  if (!out) return out;
  PlayedGame& game = out->played;
  size_t moves = 0;
  std::string ending;
  for (const std::string& s : statements) {
    if (s.starts_with("N+") && s.size() > 2) game.names[shogi::BLACK] = s.substr(2);
    if (s.starts_with("N-") && s.size() > 2) game.names[shogi::WHITE] = s.substr(2);
    if ((s[0] == '+' || s[0] == '-') && s.size() >= 7 && s[1] >= '0' && s[1] <= '9') ++moves;
    if (s[0] == 'T' && moves > 0 && moves <= game.moves.size()) {
      double seconds = 0;
      auto [end, ec] = std::from_chars(s.data() + 1, s.data() + s.size(), seconds);
      if (ec == std::errc() && end == s.data() + s.size())
        game.moves[moves - 1].time_ms = std::int64_t(std::llround(seconds * 1000));
    }
    if (s.starts_with("'*") && moves > 0 && moves <= game.moves.size())
      if (auto score = record::comment_score(s, mover_of(game, moves - 1))) set_own_score(game, moves - 1, *score);
    if (s[0] == '%') ending = s;
  }
  csa_ending(ending,
             game.moves.size() % 2 == 0 ? game::side_to_move(game.start_sfen) : ~game::side_to_move(game.start_sfen),
             game);
  return out;
}

// The seconds of a KIF move line's "( 0:03/00:00:12)", or -1.
std::int64_t kif_move_ms(std::string_view line) {
  const size_t open = line.rfind('(');
  const size_t slash = line.find('/', open == std::string_view::npos ? 0 : open);
  if (open == std::string_view::npos || slash == std::string_view::npos) return -1;
  std::string_view t = line.substr(open + 1, slash - open - 1);
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  const size_t colon = t.find(':');
  if (colon == std::string_view::npos) return -1;
  int minutes = 0, seconds = 0;
  if (std::from_chars(t.data(), t.data() + colon, minutes).ec != std::errc() ||
      std::from_chars(t.data() + colon + 1, t.data() + t.size(), seconds).ec != std::errc())
    return -1;
  return (std::int64_t(minutes) * 60 + seconds) * 1000;
}

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

}  // namespace

std::string game_key(std::int64_t game, const std::string& source) { return source + "#" + std::to_string(game); }

bool GameSelection::selects(const SourceGame& game) const {
  const Outcome o = game.played.result.outcome;
  switch (kind) {
    case Kind::All:
      return true;
    case Kind::Decisive:
      return o == Outcome::BlackWin || o == Outcome::WhiteWin;
    case Kind::LostBy:
      return (o == Outcome::WhiteWin && game.played.names[shogi::BLACK] == engine) ||
             (o == Outcome::BlackWin && game.played.names[shogi::WHITE] == engine);
    case Kind::Numbers:
      for (std::int64_t n : numbers)
        if (n == game.game + 1) return true;
      return false;
  }
  return false;
}

std::expected<GameSelection, std::string> parse_game_selection(std::string_view text) {
  GameSelection s;
  if (text == "all") return s;
  if (text == "decisive") {
    s.kind = GameSelection::Kind::Decisive;
    return s;
  }
  if (text.starts_with("lost-by=")) {
    s.kind = GameSelection::Kind::LostBy;
    s.engine = std::string(text.substr(8));
    if (s.engine.empty()) return std::unexpected(std::string("lost-by= needs an engine's name"));
    return s;
  }
  s.kind = GameSelection::Kind::Numbers;
  auto wrong = [](std::string_view what) {
    std::string message = "expected all, decisive, lost-by=NAME or game numbers like 3,7,10-12: ";
    message.append(what);
    return std::unexpected(std::move(message));
  };
  while (!text.empty()) {
    const size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const size_t dash = item.find('-');
    auto first = parse_number(item.substr(0, dash));
    if (!first) return wrong(first.error());
    std::int64_t last = *first;
    if (dash != std::string_view::npos) {
      auto l = parse_number(item.substr(dash + 1));
      if (!l) return wrong(l.error());
      last = *l;
    }
    if (last < *first || last - *first > 1000000) return wrong(std::string(item) + " is an empty or huge range");
    for (std::int64_t n = *first; n <= last; ++n) s.numbers.push_back(n);
  }
  if (s.numbers.empty()) return std::unexpected(std::string("no game numbers given"));
  return s;
}

std::expected<std::vector<SourceGame>, std::string> read_journal_games(const std::string& path) {
  auto contents = journal::read_games(path, true);
  if (!contents) return std::unexpected(contents.error());
  std::vector<SourceGame> out;
  for (size_t i = 0; i < contents->games.size(); ++i) {
    const journal::JournalGame& g = contents->games[i];
    if (g.replay) continue;
    auto played = parse_result_json(contents->lines[i]);
    if (!played) return std::unexpected(path + ": game " + std::to_string(g.game + 1) + ": " + played.error());
    out.push_back(SourceGame{g.game, {}, std::move(*played)});
  }
  return out;
}

std::expected<std::vector<SourceGame>, std::string> parse_csa_games(std::string_view text, const std::string& name) {
  std::vector<SourceGame> out;
  std::vector<std::string> statements;
  std::string chunk;
  bool any = false;
  auto flush = [&]() -> std::expected<void, std::string> {
    if (any) {
      auto g = csa_game(statements, chunk, name);
      if (!g) return std::unexpected(g.error());
      g->game = std::int64_t(out.size());
      out.push_back(std::move(*g));
    }
    statements.clear();
    chunk.clear();
    any = false;
    return {};
  };
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line == "/") {
      if (auto r = flush(); !r) return std::unexpected(r.error());
      continue;
    }
    chunk += line;
    chunk += '\n';
    if (line.empty()) continue;
    if (line[0] == '\'') {
      statements.push_back(line);
      continue;
    }
    any = true;
    for (size_t start = 0; start <= line.size();) {
      const size_t comma = line.find(',', start);
      std::string s = line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!s.empty()) statements.push_back(std::move(s));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  if (auto r = flush(); !r) return std::unexpected(r.error());
  if (out.empty()) return std::unexpected(name + ": no game in the CSA file");
  return out;
}

std::expected<SourceGame, std::string> parse_kif_game(std::string_view text, const std::string& name) {
  auto opening = openings::parse_kif_opening(text, name, 0);
  if (!opening) return std::unexpected(opening.error());
  auto out = record_game(opening->position, name);
  if (!out) return out;
  PlayedGame& game = out->played;
  set_result(game, Outcome::None, Termination::Interrupted);
  std::istringstream in{std::string(text)};
  std::string line;
  Termination termination = Termination::None;
  size_t last_move = 0;  // the number of the last move line read, 1-based; 0 before the first
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.starts_with("変化：")) break;  // the variations follow the main line and its ending
    // ShogiHome's "*#評価値=480" after a move: black's view, as the runner writes it.
    if (last_move > 0)
      if (auto score = record::kif_comment_score(line, mover_of(game, last_move - 1)))
        set_own_score(game, last_move - 1, *score);
    for (auto [label, side] : {std::pair{"先手：", shogi::BLACK},
                               {"下手：", shogi::BLACK},
                               {"後手：", shogi::WHITE},
                               {"上手：", shogi::WHITE}})
      if (line.starts_with(label)) game.names[side] = line.substr(std::string_view(label).size());
    std::string_view l = line;
    while (!l.empty() && l.front() == ' ') l.remove_prefix(1);
    int ply = 0;
    auto [end, ec] = std::from_chars(l.data(), l.data() + l.size(), ply);
    if (ec == std::errc() && end != l.data() && ply >= 1) {
      if (size_t(ply) <= game.moves.size()) {
        last_move = size_t(ply);
        if (std::int64_t ms = kif_move_ms(l); ms >= 0) game.moves[size_t(ply - 1)].time_ms = ms;
      } else if (contains(l, "投了")) {
        termination = Termination::Resign;
      } else if (contains(l, "詰み")) {
        termination = Termination::Checkmate;
      } else if (contains(l, "切れ")) {
        termination = Termination::TimeForfeit;
      } else if (contains(l, "反則")) {
        termination = Termination::IllegalMove;
      } else if (contains(l, "入玉")) {
        termination = Termination::Declaration;
      }
      continue;
    }
    if (!line.starts_with("まで")) continue;
    const bool black = contains(line, "先手") || contains(line, "下手");
    const bool white = contains(line, "後手") || contains(line, "上手");
    if (contains(line, "千日手"))
      set_result(game, Outcome::Draw, Termination::Sennichite);
    else if (contains(line, "持将棋"))
      set_result(game, Outcome::Draw, Termination::Adjudication);
    else if (black != white && contains(line, "反則負け"))
      set_result(game, win_for(black ? shogi::WHITE : shogi::BLACK), Termination::IllegalMove);
    else if (black != white && contains(line, "勝ち"))
      set_result(game, win_for(black ? shogi::BLACK : shogi::WHITE),
                 termination != Termination::None ? termination : Termination::Resign);
  }
  return out;
}

std::vector<std::string> record_files(const std::string& folder) {
  std::vector<std::string> csa, kif;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(folder, ec)) {
    if (!e.is_regular_file()) continue;
    const std::string path = e.path().string();
    const std::string ext = lower_extension(path);
    if (ext == ".csa") csa.push_back(path);
    if (ext == ".kif" || ext == ".kifu") kif.push_back(path);
  }
  std::set<std::string> stems;
  for (const std::string& p : csa) stems.insert((fs::path(p).parent_path() / fs::path(p).stem()).string());
  std::vector<std::string> out = csa;
  for (const std::string& p : kif)
    if (!stems.contains((fs::path(p).parent_path() / fs::path(p).stem()).string())) out.push_back(p);
  std::sort(out.begin(), out.end());
  return out;
}

std::expected<std::vector<SourceGame>, std::string> read_source_games(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec) && !fs::exists(fs::path(path) / "journal.jsonl") &&
      !fs::exists(fs::path(path) / "segments")) {
    std::vector<std::string> files = record_files(path);
    if (files.empty()) return std::unexpected(path + ": no journal.jsonl, segments, CSA or KIF records in it");
    std::vector<SourceGame> out;
    for (const std::string& file : files) {
      auto games = read_source_games(file);
      if (!games) return std::unexpected(games.error());
      for (SourceGame& g : *games) {
        g.game = std::int64_t(out.size());
        out.push_back(std::move(g));
      }
    }
    return out;
  }
  const std::string ext = lower_extension(path);
  if (ext == ".csa" || ext == ".kif" || ext == ".kifu") {
    auto text = read_text(path);
    if (!text) return std::unexpected(text.error());
    const std::string name = fs::path(path).filename().string();
    if (ext == ".csa") return parse_csa_games(*text, name);
    auto decoded = openings::to_utf8(*text);
    if (!decoded) return std::unexpected(path + ": " + decoded.error());
    auto game = parse_kif_game(*decoded, name);
    if (!game) return std::unexpected(game.error());
    return std::vector<SourceGame>{std::move(*game)};
  }
  return read_journal_games(path);
}

}  // namespace arena::analysis
