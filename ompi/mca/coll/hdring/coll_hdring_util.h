/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring utilities every part of the component uses: messages to the user, the trace stream, the process's
 * lock, a hash. The bottom of the component: it knows nothing of the others.
 */
#ifndef MCA_COLL_HDRING_UTIL_H
#define MCA_COLL_HDRING_UTIL_H

#include "coll_hdring_ompi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

BEGIN_C_DECLS

/* A most-recently-used list, intrusive: entries have `newer` and `older`, the owner `newest` and `oldest`
 * (the prepared calls of a module, the tasks of a setup). */
#define MCA_COLL_HDRING_LRU_UNLINK(owner, e)                                                                 \
    do {                                                                                                      \
        *(NULL != (e)->newer ? &(e)->newer->older : &(owner)->newest) = (e)->older;                          \
        *(NULL != (e)->older ? &(e)->older->newer : &(owner)->oldest) = (e)->newer;                          \
        (e)->newer = (e)->older = NULL;                                                                       \
    } while (0)
#define MCA_COLL_HDRING_LRU_PUSH_NEWEST(owner, e)                                                            \
    do {                                                                                                      \
        (e)->newer = NULL;                                                                                    \
        (e)->older = (owner)->newest;                                                                         \
        *(NULL != (owner)->newest ? &(owner)->newest->newer : &(owner)->oldest) = (e);                       \
        (owner)->newest = (e);                                                                                \
    } while (0)

/* Seconds on a monotonic clock (no MPI call: the component stays below the MPI layer). */
double mca_coll_hdring_now(void);

/* The verbose trace's opal_output stream: lines on stderr without opal's "[host:pid]" prefix. */
extern int mca_coll_hdring_output;
/* Guards what the process's communicators share (the parameter snapshot, the setups and their caches):
 * communicators may be created and used on several threads. */
extern opal_mutex_t mca_coll_hdring_lock;

/* At the component's open and close. */
void mca_coll_hdring_util_open(void);
void mca_coll_hdring_util_close(void);

/* A message of help-coll-hdring.txt for the user, once per job: printed by the job's first process straight
 * to stderr (Open MPI 4.1.4's relay of opal_show_help messages to mpirun was seen to drop them when several
 * processes send at once, as at MPI_Init). MCA parameters are the same on every process, so the first one
 * speaks for all. */
void mca_coll_hdring_report(const char *topic, ...);
/* The same message, from whichever process calls it. */
void mca_coll_hdring_report_here(const char *topic, ...);

/* Appends printf-style text to buf (of `size` bytes, NUL-terminated), truncating if it must. */
void mca_coll_hdring_append(char *buf, size_t size, const char *fmt, ...) __opal_attribute_format__(__printf__, 3, 4);
/* Appends printf-style text to *buf, a string in malloc'd memory (NULL: empty) grown to hold it all: text made
 * from the registry, which no fixed size bounds. false when memory ran out (*buf stays as it was). */
bool mca_coll_hdring_grow(char **buf, const char *fmt, ...) __opal_attribute_format__(__printf__, 2, 3);

/* FNV-1a of n bytes, continuing from h (start from MCA_COLL_HDRING_HASH_SEED): labels and digests that ranks
 * compare, and keys of the process's caches. */
#define MCA_COLL_HDRING_HASH_SEED 1469598103934665603ULL
static inline uint64_t mca_coll_hdring_hash(uint64_t h, const void *data, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        h = (h ^ ((const unsigned char *) data)[i]) * 1099511628211ULL;
    }
    return h;
}

END_C_DECLS

#endif
