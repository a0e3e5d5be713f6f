/*
 * Two activities compared count by count (the analyst against the reference
 * simulator or a hand count): check_activity.c, check_activity_cases.c.
 */
#ifndef TRIM_TEST_ACTIVITY_COMPARE_H
#define TRIM_TEST_ACTIVITY_COMPARE_H

#include <stddef.h>

#include "activity/activity_int.h"

/* 0 if equal over nL levels, else 1 with the first difference in msg. */
int compare(trim__activity *x, trim__activity *y, int nL, char *msg, size_t n);

#endif
