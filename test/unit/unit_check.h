/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* Check boilerplate shared by the unit tests: one test case per test, so CK_RUN_CASE=<name> runs just one. */
#ifndef UNIT_CHECK_H
#define UNIT_CHECK_H

#include <check.h>
#include <stdlib.h>

#define UNIT_TIMEOUT_S 600

#define UNIT_ADD(suite, name)                                                                                \
    do {                                                                                                     \
        TCase *tc_ = tcase_create(#name);                                                                    \
        tcase_set_timeout(tc_, UNIT_TIMEOUT_S);                                                              \
        tcase_add_test(tc_, name);                                                                           \
        suite_add_tcase(suite, tc_);                                                                         \
    } while (0)

/* Runs the suite; the exit status of the test program. */
static inline int unit_run(Suite *suite)
{
    SRunner *sr = srunner_create(suite);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
