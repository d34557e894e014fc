// CPrefetch is its header alone; a C target needs one source file.
#include "CPrefetch.h"
