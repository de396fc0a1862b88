// The methods of Duration (a count of nanoseconds): its length in a unit,
// rounded towards zero.
#include "methods.h"

namespace mty::interp::methods {

CallStatus DurationAsMillis(MethodCall& c) { return c.Int(c.recv.i() / 1000000); }

CallStatus DurationAsSecs(MethodCall& c) { return c.Int(c.recv.i() / 1000000000); }

CallStatus DurationAsNanos(MethodCall& c) { return c.Int(c.recv.i()); }

}  // namespace mty::interp::methods
