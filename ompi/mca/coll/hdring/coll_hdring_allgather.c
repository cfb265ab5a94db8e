/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring MPI_Allgather: decide, then run the algorithm over the PML or hand the call to the fallback; a
 * call that repeats the previous one replays its schedule at once (coll_hdring_repeat.c).
 * The algorithms work on the receive buffer and type only: this rank's contribution is first copied into its
 * block (unless MPI_IN_PLACE already put it there), converting from the send type. Sends of exactly that
 * block read the send buffer instead. On the repeat path, when the first exchange neither touches the block nor
 * sends from it, the copy runs while that exchange's messages are in flight (mca_coll_hdring_pml_contribute):
 * 1-3% off a small allgather at 2 ranks.
 */
#include "ompi_config.h"

#include "ompi/datatype/ompi_datatype.h"

#include "coll_hdring.h"

/* This rank's contribution into its block of t's OUT (unless in place), now or while the first exchange is in
 * flight, and sends of that block from sbuf. */
static int contribute(mca_coll_hdring_pml_t *t, const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                      int rcount, int rank, bool in_flight)
{
    if (MPI_IN_PLACE == sbuf) {
        return MPI_SUCCESS;
    }
    return mca_coll_hdring_pml_contribute(t, (size_t) rank * (size_t) rcount, (size_t) rcount, sbuf, scount, sdtype,
                                          in_flight);
}

/* A call the repeat path does not serve: decide, set up and run. Not inlined: the repeat path
 * (mca_coll_hdring_allgather) then saves and restores fewer registers. */
static __opal_attribute_noinline__ int full_path(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                                 void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                                                 struct ompi_communicator_t *comm, mca_coll_hdring_module_t *m,
                                                 const mca_coll_hdring_key_t *key)
{
    const int p = ompi_comm_size(comm), rank = ompi_comm_rank(comm);
    mca_coll_hdring_choice_t choice;
    mca_coll_hdring_pml_t t;
    const hdring_partition_t parts = hdring_partition_uniform(p, (size_t) rcount);
    hdring_blocks_t blocks;
    hdring_args_t args = {0};
    size_t type_size;
    int rc;

    ompi_datatype_type_size(rdtype, &type_size);
    const mca_coll_hdring_call_t call = {
        .coll = MCA_COLL_HDRING_ALLGATHER,
        .comm_size = p,
        .bytes = (size_t) p * (size_t) rcount * type_size,
        .ordered = false,
    };
    mca_coll_hdring_decide(m, comm, &call, &choice);
    if (choice.fallback) {
        return m->fallback.coll_allgather(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm,
                                          m->fallback.coll_allgather_module);
    }

    mca_coll_hdring_pml_init(&t, m, comm, MCA_COLL_HDRING_ALLGATHER, rdtype, NULL, true);
    t.base[HDRING_BUF_OUT] = rbuf;
    rc = contribute(&t, sbuf, scount, sdtype, rcount, rank, false);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    mca_coll_hdring_args(m, &choice, &parts, false, 1, &blocks, &args);
    rc = mca_coll_hdring_scratch_acquire(m, &t, hdring_scratch(&t.xport, choice.alg, &args));
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_pml_error(&t, mca_coll_hdring_run(m, &t, MCA_COLL_HDRING_ALLGATHER, choice.alg, &args,
                                                                  key));
    }
    mca_coll_hdring_scratch_release(&t);
    return rc;
}

int mca_coll_hdring_allgather(const void *sbuf, int scount, struct ompi_datatype_t *sdtype, void *rbuf,
                              int rcount, struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                              mca_coll_base_module_t *module)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    const bool in_place = MPI_IN_PLACE == sbuf; /* then MPI ignores the send count and type */
    const mca_coll_hdring_key_t key = {
        .count = {in_place ? 0 : (size_t) scount, (size_t) rcount},
        .dtype = {in_place ? NULL : sdtype, rdtype},
        .in_place = in_place,
        .out = rbuf,
    };
    mca_coll_hdring_pml_t *repeat = mca_coll_hdring_repeat_find(m, MCA_COLL_HDRING_ALLGATHER, &key);
    if (NULL != repeat) {
        const int rc = contribute(repeat, sbuf, scount, sdtype, rcount, ompi_comm_rank(comm),
                                  mca_coll_hdring_repeat_fills_in_flight(m, MCA_COLL_HDRING_ALLGATHER));
        return MPI_SUCCESS != rc ? rc : mca_coll_hdring_repeat_run(m, MCA_COLL_HDRING_ALLGATHER, repeat);
    }
    return full_path(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, m, &key);
}
