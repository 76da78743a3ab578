// Boost.JSON's implementation, compiled once for the whole runner (header-only use; see its src.hpp). Kept alone
// in its own file because it is slow to compile and never changes.
#include <boost/json/src.hpp>
