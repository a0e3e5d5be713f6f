/*
 * TRIM's Fig. 6 (an FC layer M = 16, C = 32 on DRAM -> GLB -> NoC 4 x 2 ->
 * RF -> MAC) as C structs, its mapping (b) in Timeloop's form, and an
 * assertion on an error code and message: check_mapping.c,
 * check_mapping_timeloop.c.
 */
#ifndef TRIM_TEST_MAPPING_FIG6_H
#define TRIM_TEST_MAPPING_FIG6_H

#include <string.h>

#include "tcase_util.h"
#include "trim.h"

enum { DRAM = 0, GLB = 1, NOC = 2, RF = 3 };

void fig6_arch(struct trim_arch *a);
void fig6_wl(trim__intra *w);
/* Fig. 6 (b) in Timeloop's mapping form. */
extern const char *const TL_FIG6B;

#define EXPECT_ERR(call, code, text)                                                          \
	do {                                                                                      \
		int rc_ = (call);                                                                     \
		ck_assert_msg(rc_ == (code), "rc %d, want %d: %s", rc_, (code), trim_last_error());   \
		ck_assert_msg(strstr(trim_last_error(), (text)) != NULL, "message '%s' lacks '%s'",    \
		              trim_last_error(), (text));                                              \
	} while (0)


#endif
