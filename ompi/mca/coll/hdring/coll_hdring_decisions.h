/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring decisions file (coll_hdring_decisions_file; hdring_decisions.h has its format): read once per
 * process when a communicator first needs it, its lines the first word on every call they match; and what this
 * process's communicators measured, added to it at MPI_Finalize by rank 0 of MPI_COMM_WORLD in one rename.
 */
#ifndef MCA_COLL_HDRING_DECISIONS_H
#define MCA_COLL_HDRING_DECISIONS_H

#include "coll_hdring_params.h"

#include "hdring_decisions.h"

BEGIN_C_DECLS

/* A file names the MPI collectives as the parameters do; hdring_decisions_t.coll is an mca_coll_hdring_coll_t. */

/* The decisions of the file at `path` (NULL or empty: none), read the first time it is asked for; problems with it
 * are reported once, by rank 0 of MPI_COMM_WORLD. Never NULL. */
const hdring_decisions_t *mca_coll_hdring_decisions_of(const char *path);

/* A decision measured in this job for the file at `path`, with its note (the candidates' times). */
void mca_coll_hdring_decisions_learned(const char *path, const hdring_decision_t *d, const char *note);

/* At the component's close: rank 0 of MPI_COMM_WORLD writes the file with what was learned added (a new file,
 * renamed over the old), then everything is let go. */
void mca_coll_hdring_decisions_close(void);

END_C_DECLS

#endif
