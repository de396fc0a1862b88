// mty::Linker: host functions an embedder gives the guest (include/mty/mty.h).
#include "mty/mty.h"
