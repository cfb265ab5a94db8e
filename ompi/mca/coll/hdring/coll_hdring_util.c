/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring utilities (coll_hdring_util.h).
 */
#define _GNU_SOURCE /* dladdr */
#include "coll_hdring_util.h"

#include <dlfcn.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opal/util/output.h"
#include "opal/util/show_help.h"

int mca_coll_hdring_output = -1;
opal_mutex_t mca_coll_hdring_lock;

/* The help file is installed next to the component, wherever that is (system, per user, test stage): the
 * directory of the shared object this function is in. */
static void add_help_dir(void)
{
    Dl_info info;
    if (0 != dladdr((void *) add_help_dir, &info) && NULL != info.dli_fname) {
        char *path = strdup(info.dli_fname);
        if (NULL != path) {
            opal_show_help_add_dir(dirname(path));
            free(path);
        }
    }
}

void mca_coll_hdring_util_open(void)
{
    opal_output_stream_t trace;

    add_help_dir();
    OBJ_CONSTRUCT(&trace, opal_output_stream_t);
    trace.lds_want_stderr = true;
    trace.lds_verbose_level = 1;
    mca_coll_hdring_output = opal_output_open(&trace);
    OBJ_DESTRUCT(&trace);
    OBJ_CONSTRUCT(&mca_coll_hdring_lock, opal_mutex_t);
}

void mca_coll_hdring_util_close(void)
{
    if (mca_coll_hdring_output >= 0) {
        opal_output_close(mca_coll_hdring_output);
        mca_coll_hdring_output = -1;
    }
    OBJ_DESTRUCT(&mca_coll_hdring_lock);
}

static void vreport(const char *topic, va_list ap)
{
    char *msg = opal_show_help_vstring("help-coll-hdring.txt", topic, true, ap);
    if (NULL != msg) {
        fputs(msg, stderr);
        fflush(stderr);
        free(msg);
    }
}

void mca_coll_hdring_report(const char *topic, ...)
{
    if (0 != OMPI_PROC_MY_NAME->vpid) {
        return;
    }
    va_list ap;
    va_start(ap, topic);
    vreport(topic, ap);
    va_end(ap);
}

void mca_coll_hdring_report_here(const char *topic, ...)
{
    va_list ap;
    va_start(ap, topic);
    vreport(topic, ap);
    va_end(ap);
}

void mca_coll_hdring_append(char *buf, size_t size, const char *fmt, ...)
{
    const size_t used = strlen(buf);
    if (used + 1 < size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf + used, size - used, fmt, ap);
        va_end(ap);
    }
}

bool mca_coll_hdring_grow(char **buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    const size_t used = NULL == *buf ? 0 : strlen(*buf);
    char *grown = n < 0 ? NULL : realloc(*buf, used + (size_t) n + 1);
    if (NULL == grown) {
        return false;
    }
    va_start(ap, fmt);
    vsnprintf(grown + used, (size_t) n + 1, fmt, ap);
    va_end(ap);
    *buf = grown;
    return true;
}

double mca_coll_hdring_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}
