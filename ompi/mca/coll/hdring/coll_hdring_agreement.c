/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring agreement: every rank of a communicator chooses the same algorithm for a call only if it chooses
 * from the same parameters. A parameter file on some nodes only, or an environment variable set for some
 * ranks, breaks that, and ranks running different algorithms hang or fail with a truncation error.
 *
 * So a new communicator, before anything else, gathers a digest of every rank's decisive parameters
 * (mca_coll_hdring_decisive_*: one 8-byte value per rank, with the fixed allgather of
 * mca_coll_hdring_gather_values). Equal everywhere: done. Otherwise every rank gathers all the values, rank 0
 * of the communicator says which parameter has which value on which ranks (report below), and hdring declines
 * the communicator on every rank alike, so the component below it serves all its calls.
 *
 * Which communicators check (coll_hdring_check_parameters): parameter files and the environment are read at
 * MPI_Init, so by default MPI_COMM_WORLD checks for the whole job, and later communicators check only when it
 * could not vouch for them: it disagreed, hdring did not serve it, or they hold processes of other jobs. Every
 * rank of a communicator knows these alike, so all of them exchange or none does; a communicator costs nothing
 * more in the common case. Level 2 checks every communicator (for programs writing the parameters through
 * MPI_T on some ranks only); 0 none.
 */
#include "ompi_config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/util/output.h"
#include "ompi/proc/proc.h"

#include "coll_hdring_agreement.h"
#include "coll_hdring_bootstrap.h"
#include "coll_hdring_util.h"

#define MAX_LISTED_VALUES 4    /* distinct values named per parameter */

/* "0-3,6,9-10": the ranks whose value of parameter i (of n per rank in all) is `value`. */
static void append_ranks(char *out, size_t len, const int64_t *all, int p, int n, int i, int64_t value)
{
    bool first = true;
    for (int r = 0; r < p; ++r) {
        if (all[(size_t) r * n + i] != value) {
            continue;
        }
        int last = r;
        while (last + 1 < p && all[(size_t) (last + 1) * n + i] == value) {
            ++last;
        }
        mca_coll_hdring_append(out, len, "%s%d", first ? "" : ",", r);
        if (last > r) {
            mca_coll_hdring_append(out, len, "-%d", last);
        }
        first = false;
        r = last;
    }
}

/* One line per parameter that differs: "  coll_hdring_<name>: <value> on ranks 0-1; <value> on ranks 2-3". */
static void describe(const int64_t *all, int p, int n, char *out, size_t len)
{
    out[0] = '\0';
    for (int i = 0; i < n; ++i) {
        int64_t seen[MAX_LISTED_VALUES];
        int nseen = 0, more = 0;
        for (int r = 0; r < p; ++r) {
            const int64_t v = all[(size_t) r * n + i];
            int k = 0;
            while (k < nseen && seen[k] != v) {
                ++k;
            }
            if (k == nseen && nseen < MAX_LISTED_VALUES) {
                seen[nseen++] = v;
            } else if (k == nseen) {
                ++more; /* ranks with values beyond the first few (not counted by value) */
            }
        }
        if (1 == nseen) {
            continue;
        }
        mca_coll_hdring_append(out, len, "  coll_hdring_%s:", mca_coll_hdring_decisive_name(i));
        for (int k = 0; k < nseen; ++k) {
            char text[64];
            mca_coll_hdring_decisive_format(i, (uint64_t) seen[k], text, sizeof(text));
            mca_coll_hdring_append(out, len, "%s %s on ranks ", k > 0 ? ";" : "", text);
            append_ranks(out, len, all, p, n, i, seen[k]);
        }
        if (more > 0) {
            mca_coll_hdring_append(out, len, "; other values on %d more ranks", more);
        }
        mca_coll_hdring_append(out, len, "\n");
    }
}

/* Rank 0 of a communicator whose ranks disagree says so, unless this process already took part in a
 * disagreement, which one of its communicators' rank 0 reported: so a job whose MPI_COMM_WORLD disagrees
 * hears it once, not again for every communicator derived from it. */
static void report(struct ompi_communicator_t *comm, const int64_t *all, int n)
{
    static bool seen = false;
    const int p = ompi_comm_size(comm);
    char text[2048];

    OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
    const bool first = !seen;
    seen = true;
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
    if (first && 0 == ompi_comm_rank(comm)) {
        describe(all, p, n, text, sizeof(text));
        mca_coll_hdring_report_here("parameters differ", p, text);
    }
}

enum { CHECK_NONE, CHECK_UNLESS_VOUCHED, CHECK_ALL };

/* Whether MPI_COMM_WORLD's ranks agreed (set when it is created, alike on every process of the job). */
static bool world_agreed = false;

/* O(1) on MPI_COMM_WORLD's group (MPI_COMM_WORLD and its dups), O(p) otherwise. */
static bool all_of_this_job(struct ompi_communicator_t *comm)
{
    const uint32_t job = OMPI_PROC_MY_NAME->jobid;
    if (comm->c_local_group == ompi_mpi_comm_world.comm.c_local_group) {
        return true;
    }
    for (int r = 0; r < ompi_comm_size(comm); ++r) {
        const ompi_proc_t *proc = ompi_comm_peer_lookup(comm, r);
        if (OMPI_CAST_RTE_NAME(&proc->super.proc_name)->jobid != job) {
            return false;
        }
    }
    return true;
}

static bool needs_check(const mca_coll_hdring_config_t *cfg, struct ompi_communicator_t *comm)
{
    switch (cfg->check_parameters) {
    case CHECK_NONE:
        return false;
    case CHECK_UNLESS_VOUCHED:
        return &ompi_mpi_comm_world.comm == comm || !world_agreed || !all_of_this_job(comm);
    default:
        return true;
    }
}

int mca_coll_hdring_agreement(const mca_coll_hdring_config_t *cfg, struct ompi_communicator_t *comm)
{
    const int p = ompi_comm_size(comm), n = mca_coll_hdring_decisive_count();
    uint64_t values[MCA_COLL_HDRING_MAX_DECISIVE];

    if (1 == p || !needs_check(cfg, comm)) {
        return OMPI_SUCCESS;
    }
    for (int i = 0; i < n; ++i) {
        values[i] = mca_coll_hdring_decisive_value(cfg, i);
    }
    /* room for every rank's values, taken before the first exchange so that no rank fails between the two; a rank
     * without takes part in the exchange all the same (empty messages), and every rank fails */
    int64_t *all = malloc((size_t) p * (size_t) n * sizeof(*all));
    const int64_t digest = (int64_t) mca_coll_hdring_hash(MCA_COLL_HDRING_HASH_SEED, values,
                                                          (size_t) n * sizeof(*values));
    int rc = mca_coll_hdring_gather_values(comm, NULL == all ? NULL : &digest, 1, all);
    bool agree = true;
    for (int r = 0; OMPI_SUCCESS == rc && r < p; ++r) {
        agree &= all[r] == digest;
    }
    if (OMPI_SUCCESS == rc && !agree) { /* rare: every rank gathers the values, so that all decline together */
        rc = mca_coll_hdring_gather_values(comm, (const int64_t *) values, n, all);
        if (OMPI_SUCCESS == rc) {
            report(comm, all, n);
        }
        if (OMPI_SUCCESS == rc && cfg->verbose >= 1 && 0 == ompi_comm_rank(comm)) {
            opal_output(mca_coll_hdring_output, "hdring: communicator of %d ranks left to the next "
                        "component: its ranks' decisive parameters differ", p);
        }
    }
    free(all);
    if (&ompi_mpi_comm_world.comm == comm) {
        world_agreed = OMPI_SUCCESS == rc && agree;
    }
    return OMPI_SUCCESS == rc && !agree ? OMPI_ERR_NOT_SUPPORTED : rc;
}
