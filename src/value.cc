// mty::Value: typed values crossing the embedding boundary (include/mty/mty.h).
#include "mty/mty.h"
