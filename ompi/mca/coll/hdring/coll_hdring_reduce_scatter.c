/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring MPI_Reduce_scatter and MPI_Reduce_scatter_block: decide, then run the algorithm over the PML or
 * hand the call to the fallback. Block b of the vector (recvcounts[b] elements) goes to rank b; with
 * MPI_IN_PLACE the vector is in recvbuf and the result lands at its start. A call that repeats the previous one
 * (for MPI_Reduce_scatter: every block's count too) replays its schedule at once (coll_hdring_repeat.c).
 */
#include "ompi_config.h"

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "coll_hdring.h"

/* Block b holds rcounts[b] elements (MPI_Reduce_scatter), or with rcounts NULL, rcount each
 * (MPI_Reduce_scatter_block); key: the call's. */
static int run(mca_coll_hdring_module_t *m, const void *sbuf, void *rbuf, const int *rcounts, int rcount,
               struct ompi_datatype_t *dtype, struct ompi_op_t *op, struct ompi_communicator_t *comm,
               const mca_coll_hdring_choice_t *choice, bool ordered, const mca_coll_hdring_key_t *key)
{
    const mca_coll_hdring_coll_t coll = NULL != rcounts ? MCA_COLL_HDRING_REDUCE_SCATTER
                                                        : MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK;
    const int p = ompi_comm_size(comm);
    mca_coll_hdring_pml_t t;
    hdring_partition_t parts = hdring_partition_uniform(p, (size_t) rcount);
    hdring_blocks_t blocks;
    hdring_args_t args = {0};
    int rc = OMPI_SUCCESS;

    mca_coll_hdring_pml_init(&t, m, comm, coll, dtype, op, mca_coll_hdring_in_locality_order(ordered));
    if (NULL != rcounts) {
        size_t *displ = hdring_take(&t.xport, (size_t) p + 1, sizeof(*displ));
        if (NULL == displ) {
            rc = OMPI_ERR_OUT_OF_RESOURCE;
        } else {
            displ[0] = 0;
            for (int b = 0; b < p; ++b) {
                displ[b + 1] = displ[b] + (size_t) rcounts[b];
            }
            parts = hdring_partition_of_displs(p, displ);
        }
    }
    if (OMPI_SUCCESS == rc) {
        size_t type_size;
        ompi_datatype_type_size(dtype, &type_size);
        mca_coll_hdring_args(m, choice, &parts, ordered, type_size, &blocks, &args);
        t.base[HDRING_BUF_IN] = (char *) (MPI_IN_PLACE == sbuf ? rbuf : sbuf);
        t.base[HDRING_BUF_OUT] = rbuf;
        rc = mca_coll_hdring_scratch_acquire(m, &t, hdring_scratch(&t.xport, choice->alg, &args));
    }
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_pml_error(&t, mca_coll_hdring_run(m, &t, coll, choice->alg, &args, key));
    }
    mca_coll_hdring_scratch_release(&t);
    return rc;
}

int mca_coll_hdring_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                                   struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                   struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    const int p = ompi_comm_size(comm);
    mca_coll_hdring_choice_t choice;
    size_t type_size, total = 0;

    for (int b = 0; b < p; ++b) {
        total += (size_t) rcounts[b];
    }
    mca_coll_hdring_key_t key = mca_coll_hdring_reduction_key(total, dtype, op, sbuf, rbuf);
    key.counts = rcounts;
    key.ncounts = p;
    mca_coll_hdring_pml_t *repeat = mca_coll_hdring_repeat_find(m, MCA_COLL_HDRING_REDUCE_SCATTER, &key);
    if (NULL != repeat) {
        return mca_coll_hdring_repeat_run(m, MCA_COLL_HDRING_REDUCE_SCATTER, repeat);
    }

    ompi_datatype_type_size(dtype, &type_size);
    const mca_coll_hdring_call_t call = {
        .coll = MCA_COLL_HDRING_REDUCE_SCATTER,
        .comm_size = p,
        .bytes = total * type_size,
        .ordered = !ompi_op_is_commute(op),
    };
    mca_coll_hdring_decide(m, comm, &call, &choice);
    if (choice.fallback) {
        return m->fallback.coll_reduce_scatter(sbuf, rbuf, rcounts, dtype, op, comm,
                                               m->fallback.coll_reduce_scatter_module);
    }
    return run(m, sbuf, rbuf, rcounts, 0, dtype, op, comm, &choice, call.ordered, &key);
}

int mca_coll_hdring_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, struct ompi_datatype_t *dtype,
                                         struct ompi_op_t *op, struct ompi_communicator_t *comm,
                                         mca_coll_base_module_t *module)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    const mca_coll_hdring_key_t key = mca_coll_hdring_reduction_key((size_t) rcount, dtype, op, sbuf, rbuf);
    mca_coll_hdring_pml_t *repeat = mca_coll_hdring_repeat_find(m, MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK, &key);
    if (NULL != repeat) {
        return mca_coll_hdring_repeat_run(m, MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK, repeat);
    }

    const int p = ompi_comm_size(comm);
    mca_coll_hdring_choice_t choice;
    size_t type_size;

    ompi_datatype_type_size(dtype, &type_size);
    const mca_coll_hdring_call_t call = {
        .coll = MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK,
        .comm_size = p,
        .bytes = (size_t) p * (size_t) rcount * type_size,
        .ordered = !ompi_op_is_commute(op),
    };
    mca_coll_hdring_decide(m, comm, &call, &choice);
    if (choice.fallback) {
        return m->fallback.coll_reduce_scatter_block(sbuf, rbuf, rcount, dtype, op, comm,
                                                     m->fallback.coll_reduce_scatter_block_module);
    }
    return run(m, sbuf, rbuf, NULL, rcount, dtype, op, comm, &choice, call.ordered, &key);
}
