/* GSL's default error handler aborts the host process: libtrim turns it off
 * once, before its first GSL call, and checks GSL return codes instead. */
#include <gsl/gsl_errno.h>
#include <pthread.h>

#include "util.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void init(void) { gsl_set_error_handler_off(); }

void trim__gsl_init(void) { pthread_once(&once, init); }
