#pragma once
// The search's and the time manager's constants, in one table. A release build compiles them as constants, so they
// cost nothing. A tune build (the shogi-arena-engine-tune binary, CMake option SHOGI_ARENA_ENGINE_TUNE) compiles
// them as variables, each a USI spin option of the same name, so that `shogi-arena spsa` can tune them;
// `shogi-arena-engine-tune tune-params` prints the table in fishtest's params format for `spsa --params`.
// With the defaults both builds search the same tree: the same bench signature.
//
// X(name, default, min, max, c_end). Integers only: a fraction is kept in tenths or hundredths, as its name says.
// c_end is the SPSA perturbation at the end of a run, about a twentieth of the range (as Stockfish's TUNE does).

#include <span>
#include <string>

// clang-format off
#define SHOGI_TUNABLES(X)                                                                                              \
  /* Late-move reductions: LmrScale/10 * ln(depth) and * ln(move count), over 1024, rounded at LmrRounding; one */   \
  /* more when not improving and the product passes LmrNonImproving. */                                              \
  X(LmrScale, 215, 150, 300, 8)                                                                                        \
  X(LmrRounding, 512, 0, 1024, 50)                                                                                     \
  X(LmrNonImproving, 900, 400, 1600, 60)                                                                               \
  /* A quiet move's stat score (butterfly plus two continuation histories) moves a reduction by */                  \
  /* (score - LmrHistoryOffset) / LmrHistoryDivisor plies. */                                                        \
  X(LmrHistoryOffset, 2000, 0, 6000, 300)                                                                              \
  X(LmrHistoryDivisor, 7000, 2000, 14000, 600)                                                                         \
  /* Late quiet moves are skipped after (FutilityMoveBase + depth^2) / (2 - improving) moves. */                     \
  X(FutilityMoveBase, 3, 1, 8, 1)                                                                                      \
  /* Reverse futility: eval - RfpMargin * (depth - improving) >= beta, below RfpDepth. */                            \
  X(RfpMargin, 170, 80, 300, 10)                                                                                       \
  X(RfpDepth, 9, 4, 14, 1)                                                                                             \
  /* Razoring: eval < alpha - RazorBase - RazorDepthSquared * depth^2, at depth 3 and below. */                      \
  X(RazorBase, 400, 100, 800, 30)                                                                                      \
  X(RazorDepthSquared, 250, 80, 500, 20)                                                                               \
  /* Null move: tried when static eval >= beta - NmpEvalDepth * depth + NmpEvalBase; reduction NmpBase + */          \
  /* depth / NmpDepthDivisor + min((eval - beta) / NmpEvalDivisor, 3). */                                            \
  X(NmpEvalDepth, 20, 0, 60, 3)                                                                                        \
  X(NmpEvalBase, 200, 0, 400, 20)                                                                                      \
  X(NmpBase, 3, 1, 10, 1)                                                                                              \
  X(NmpDepthDivisor, 3, 2, 6, 1)                                                                                       \
  X(NmpEvalDivisor, 200, 80, 400, 15)                                                                                  \
  /* ProbCut beta: beta + ProbcutMargin - ProbcutImproving * improving. */                                           \
  X(ProbcutMargin, 180, 80, 350, 12)                                                                                   \
  X(ProbcutImproving, 50, 0, 120, 6)                                                                                   \
  /* Shallow pruning: captures losing more than SeeCaptureMargin * depth by SEE; quiets whose eval + */              \
  /* PruneQuietBase + PruneQuietDepth * lmr depth cannot reach alpha, or losing SeeQuietMargin * lmr depth^2. */     \
  X(SeeCaptureMargin, 200, 80, 350, 12)                                                                                \
  X(PruneQuietBase, 200, 80, 350, 12)                                                                                  \
  X(PruneQuietDepth, 170, 80, 300, 10)                                                                                 \
  X(SeeQuietMargin, 25, 5, 60, 3)                                                                                      \
  /* Singular extension from SingularDepth, singular beta tt value - SingularMargin/10 * depth. */                   \
  X(SingularDepth, 7, 4, 16, 1)                                                                                        \
  X(SingularMargin, 20, 5, 50, 3)                                                                                      \
  /* Extensions count half beyond the iteration depth by ExtHalf*, not at all beyond ExtNone* plies. */              \
  X(ExtHalfPv, 6, 2, 12, 1)                                                                                            \
  X(ExtNonePv, 10, 4, 16, 1)                                                                                           \
  X(ExtHalfNonPv, 4, 2, 10, 1)                                                                                         \
  X(ExtNoneNonPv, 8, 4, 14, 1)                                                                                         \
  /* Aspiration window: AspirationDelta + |previous score| / 64. Quiescence futility: stand pat + QsFutility. */     \
  X(AspirationDelta, 20, 8, 40, 2)                                                                                     \
  X(QsFutility, 150, 50, 300, 12)                                                                                      \
  /* Captures are ordered by MVV-LVA plus their capture history / CaptureHistoryDivisor. */                           \
  X(CaptureHistoryDivisor, 4, 1, 16, 1)                                                                                \
  /* A quiet move that gives direct check is ordered as if its history were QuietCheckBonus higher. */              \
  X(QuietCheckBonus, 6000, 0, 16000, 800)                                                                              \
  /* Time: TmMovesToGo - ply/5 moves expected (at least TmMovesToGoMin); a move takes at most TmMaxShare per mille */  \
  /* of the remaining time (a share, not a divisor, so that tuning can move it in small steps) and TmMaxScale */       \
  /* optimums; no iteration started that the last one's time times the branching factor (at most TmBranchingMax/10) */ \
  /* would carry past the maximum; the optimum grows by falling score (/TmFalling cp), best-move changes */            \
  /* (TmInstability/100 each), a fail-low (TmFailLow/100), and shrinks after 3, 5 and 8 stable iterations */           \
  /* (TmStable3, 5, 8 hundredths). */                                                                                  \
  X(TmMovesToGo, 45, 30, 80, 3)                                                                                        \
  X(TmMovesToGoMin, 20, 8, 30, 1)                                                                                      \
  X(TmMaxShare, 125, 60, 350, 15)                                                                                      \
  X(TmMaxScale, 5, 3, 10, 1)                                                                                           \
  X(TmBranchingMax, 80, 20, 120, 5)                                                                                    \
  X(TmFalling, 200, 100, 400, 15)                                                                                      \
  X(TmInstability, 150, 50, 300, 12)                                                                                   \
  X(TmFailLow, 150, 100, 250, 8)                                                                                       \
  X(TmStable3, 85, 50, 100, 3)                                                                                         \
  X(TmStable5, 65, 35, 100, 3)                                                                                         \
  X(TmStable8, 45, 20, 100, 3)
// clang-format on

namespace shogi::tune {

#ifdef SHOGI_TUNE
inline constexpr bool TUNE_BUILD = true;
#define SHOGI_TUNABLE_DEFINE(name, def, min, max, c_end) inline int name = def;
#else
inline constexpr bool TUNE_BUILD = false;
#define SHOGI_TUNABLE_DEFINE(name, def, min, max, c_end) inline constexpr int name = def;
#endif
SHOGI_TUNABLES(SHOGI_TUNABLE_DEFINE)
#undef SHOGI_TUNABLE_DEFINE

struct Tunable {
  const char* name;
  int default_value, min, max, c_end;
};

// Every entry of the table, in its order.
std::span<const Tunable> tunables();

// Sets one (a tune build only; false for an unknown name or a release build) and rebuilds what depends on it.
bool set(const std::string& name, int value);

// The table in fishtest's params format, one `name,int,default,min,max,c_end,r_end` line each.
std::string params_lines();

}  // namespace shogi::tune
