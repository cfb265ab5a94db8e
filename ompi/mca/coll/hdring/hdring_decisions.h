/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring decisions files, MPI-free: which algorithm serves a collective of a size range on communicators of a
 * shape, as a text people read and write. One decision per line, six fields and an optional note:
 *
 *   # p  per_node  collective  from_bytes  to_bytes  algorithm  measured
 *   4    4         allreduce   1024        2047      rhd        rhd=10.1us ring=12.3us fallback=11.0us
 *   *    *         bcast       0           *         binomial
 *
 * p: the communicator's size; per_node: its ranks per node (0: nodes of unequal sizes); either "*" for any.
 * collective: as in the MCA parameters (allreduce, reduce_scatter, reduce_scatter_block, allgather, bcast). The
 * sizes are the whole vector in bytes, as the trace's bytes=, both ends included ("*": no end). algorithm: one of
 * the collective's algorithm names, or "fallback" (the MPI library's own). What follows is a note (the component
 * writes the times it measured there). "#" starts a comment. The first line that matches a call decides it.
 */
#ifndef HDRING_DECISIONS_H
#define HDRING_DECISIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "hdring_registry.h"

#define HDRING_DECISIONS_ANY (-1)

typedef struct hdring_decision {
    int p, ppn;    /* HDRING_DECISIONS_ANY: any */
    int coll;      /* the caller's collective index (hdring_decisions_colls_t) */
    size_t lo, hi; /* bytes, inclusive */
    int pick;      /* an algorithm id, or HDRING_PICK_FALLBACK (hdring_select.h) */
} hdring_decision_t;

typedef struct hdring_decisions {
    int n, room;
    hdring_decision_t *d;
} hdring_decisions_t;

/* The collectives a file names: n names, and the core collective of each (whose algorithms it names). */
typedef struct hdring_decisions_colls {
    int n;
    const char *const *names;
    const hdring_coll_t *core;
} hdring_decisions_colls_t;

/* The decisions of `text` appended to d. Returns the number of lines it could not read (and leaves out); the first
 * one's number and what was wrong with it go to err. -1 without memory. */
int hdring_decisions_parse(const char *text, const hdring_decisions_colls_t *colls, hdring_decisions_t *d,
                           char *err, size_t errlen);
/* Appends one decision: false without memory. */
bool hdring_decisions_add(hdring_decisions_t *d, const hdring_decision_t *e);
/* The first decision for a call of `bytes` of collective coll on p ranks, ppn per node; NULL when none. */
const hdring_decision_t *hdring_decisions_find(const hdring_decisions_t *d, int p, int ppn, int coll, size_t bytes);
/* The line of decision e, its note after it (may be NULL), without a newline. */
void hdring_decisions_format(const hdring_decision_t *e, const hdring_decisions_colls_t *colls, const char *note,
                             char *out, size_t len);
/* The comment a file starts with: what its columns are. */
extern const char hdring_decisions_header[];
void hdring_decisions_free(hdring_decisions_t *d);

#endif
