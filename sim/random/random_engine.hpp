// The engine behind every random stream: PCG64 (pcg-cpp, Debian's libpcg-cpp-dev). Why not
// std::mt19937_64: each job thread keeps a stream of its own (common random numbers across configurations),
// and mt19937_64's state is 2,504 bytes, a third of what a job held; PCG64's is 32 bytes. Both pass TestU01's
// BigCrush (M. E. O'Neill, "PCG: A Family of Simple Fast Space-Efficient Statistically Good Algorithms for
// Random Number Generation", 2014). Its output for a seed is fixed by that definition, so runs are the same
// on every platform.
#pragma once

#include <pcg_random.hpp>

namespace sonicsim {

using RandomEngine = pcg64;

} // namespace sonicsim
