/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring decisions file (coll_hdring_decisions.h). The file's text comes from the parameters' reader
 * (mca_coll_hdring_params_file_text), which also hashes it into the check that every rank decides alike: ranks
 * that read different files never serve a communicator together.
 */
#include "coll_hdring_decisions.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_hdring_util.h"

/* The collectives a file names, as the parameters name them (coll_hdring_params.c's table, copied for the core). */
static const char *coll_names[MCA_COLL_HDRING_NCOLLS];
static hdring_coll_t coll_cores[MCA_COLL_HDRING_NCOLLS];
static const hdring_decisions_colls_t decisions_colls = {MCA_COLL_HDRING_NCOLLS, coll_names, coll_cores};

static const hdring_decisions_colls_t *colls(void)
{
    for (int c = 0; c < MCA_COLL_HDRING_NCOLLS; ++c) {
        coll_names[c] = mca_coll_hdring_coll_name((mca_coll_hdring_coll_t) c);
        coll_cores[c] = mca_coll_hdring_core_coll((mca_coll_hdring_coll_t) c);
    }
    return &decisions_colls;
}

/* The file read (one per process: the path of the first communicator that asked), and the decisions learned. */
static struct {
    char *path;
    hdring_decisions_t read;
    hdring_decisions_t learned;
    char **notes; /* one per learned decision */
    int room;
} file;
static const hdring_decisions_t none;

const hdring_decisions_t *mca_coll_hdring_decisions_of(const char *path)
{
    if (NULL == path || '\0' == path[0]) {
        return &none;
    }
    OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
    if (NULL == file.path && NULL != (file.path = strdup(path))) {
        int error = 0;
        const char *text = mca_coll_hdring_params_file_text(path, &error);
        char why[512];
        if (NULL != text) {
            const int bad = hdring_decisions_parse(text, colls(), &file.read, why,
                                                   sizeof(why));
            if (bad > 0) {
                mca_coll_hdring_report("bad decisions", path, bad, why);
            } else if (bad < 0) {
                mca_coll_hdring_report("decisions unreadable", path, strerror(ENOMEM));
            }
        } else if (ENOENT != error) { /* a missing file starts empty: the job writes it */
            mca_coll_hdring_report("decisions unreadable", path, strerror(error));
        }
    }
    const hdring_decisions_t *d = NULL != file.path && 0 == strcmp(file.path, path) ? &file.read : &none;
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
    return d;
}

void mca_coll_hdring_decisions_learned(const char *path, const hdring_decision_t *d, const char *note)
{
    OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
    if (NULL != file.path && 0 == strcmp(file.path, path)) {
        if (file.learned.n == file.room) {
            const int room = file.room > 0 ? 2 * file.room : 16;
            char **grown = realloc(file.notes, (size_t) room * sizeof(*grown));
            file.notes = NULL != grown ? grown : file.notes;
            file.room = NULL != grown ? room : file.room;
        }
        if (file.learned.n < file.room) {
            char *copy = strdup(note);
            if (NULL != copy && hdring_decisions_add(&file.learned, d)) {
                file.notes[file.learned.n - 1] = copy;
            } else {
                free(copy);
            }
        }
    }
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
}

/* The file's text (or the header, for a new one) and the learned lines, into `path`.tmp.<pid>, renamed over it. */
static int save(void)
{
    int error = 0;
    const char *text = mca_coll_hdring_params_file_text(file.path, &error);
    const size_t len = strlen(file.path) + 32;
    char *tmp = malloc(len);
    if (NULL == tmp) {
        return ENOMEM;
    }
    snprintf(tmp, len, "%s.tmp.%ld", file.path, (long) getpid());
    FILE *out = fopen(tmp, "w");
    if (NULL == out) {
        error = errno;
        free(tmp);
        return error;
    }
    const char *old = NULL != text ? text : hdring_decisions_header;
    fputs(old, out);
    if ('\0' != old[0] && '\n' != old[strlen(old) - 1]) {
        fputc('\n', out);
    }
    fputs("# measured by a job:\n", out);
    for (int i = 0; i < file.learned.n; ++i) {
        char line[1024];
        hdring_decisions_format(&file.learned.d[i], colls(), file.notes[i], line,
                                sizeof(line));
        fprintf(out, "%s\n", line);
    }
    error = 0 != ferror(out) ? EIO : 0;
    if (0 != fclose(out) && 0 == error) {
        error = errno;
    }
    if (0 == error && 0 != rename(tmp, file.path)) {
        error = errno;
    }
    if (0 != error) {
        unlink(tmp);
    }
    free(tmp);
    return error;
}

void mca_coll_hdring_decisions_close(void)
{
    if (NULL != file.path && file.learned.n > 0 && 0 == OMPI_PROC_MY_NAME->vpid) {
        const int error = save();
        if (0 != error) {
            mca_coll_hdring_report("decisions unwritten", file.path, strerror(error));
        }
    }
    for (int i = 0; i < file.learned.n; ++i) {
        free(file.notes[i]);
    }
    free(file.notes);
    free(file.path);
    hdring_decisions_free(&file.read);
    hdring_decisions_free(&file.learned);
    memset(&file, 0, sizeof(file));
}
