/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring collectives (coll_hdring_colls.h): the module's functions, each the MPI function's arguments as a
 * call (mca_coll_hdring_args_t) for the one path (coll_hdring_call.c).
 */
#include "coll_hdring_colls.h"

#include "coll_hdring_call.h"
#include "coll_hdring_tolerant.h"

/* MPI's arguments of each collective, as a call. Every field is named: a call of a few bytes pays for zeroing
 * the struct otherwise. */
#define ARGS(COLL, SBUF, RBUF, COUNT, RCOUNTS, DTYPE, SCOUNT, SDTYPE, OP, ROOT)                                     \
    {.coll = COLL, .sbuf = SBUF, .rbuf = RBUF, .count = (size_t) (COUNT), .rcounts = RCOUNTS, .dtype = DTYPE,       \
     .scount = SCOUNT, .sdtype = SDTYPE, .op = OP, .root = ROOT, .info = NULL}
#define ALLREDUCE ARGS(MCA_COLL_HDRING_ALLREDUCE, sbuf, rbuf, count, NULL, dtype, 0, NULL, op, 0)
#define REDUCE_SCATTER ARGS(MCA_COLL_HDRING_REDUCE_SCATTER, sbuf, rbuf, 0, rcounts, dtype, 0, NULL, op, 0)
#define REDUCE_SCATTER_BLOCK ARGS(MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK, sbuf, rbuf, rcount, NULL, dtype, 0, NULL, op, 0)
#define ALLGATHER ARGS(MCA_COLL_HDRING_ALLGATHER, sbuf, rbuf, rcount, NULL, rdtype, scount, sdtype, NULL, 0)
#define BCAST ARGS(MCA_COLL_HDRING_BCAST, NULL, buf, count, NULL, dtype, 0, NULL, NULL, root)

#define MODULE ((mca_coll_hdring_module_t *) module)

int mca_coll_hdring_allreduce(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                              struct ompi_op_t *op, struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    const mca_coll_hdring_args_t a = ALLREDUCE;
    if (OPAL_UNLIKELY(mca_coll_hdring_tolerant(MODULE))) {
        return mca_coll_hdring_tolerant_allreduce(MODULE, comm, &a);
    }
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_BLOCKING, NULL);
}

int mca_coll_hdring_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts, struct ompi_datatype_t *dtype,
                                   struct ompi_op_t *op, struct ompi_communicator_t *comm,
                                   mca_coll_base_module_t *module)
{
    const mca_coll_hdring_args_t a = REDUCE_SCATTER;
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_BLOCKING, NULL);
}

int mca_coll_hdring_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, struct ompi_datatype_t *dtype,
                                         struct ompi_op_t *op, struct ompi_communicator_t *comm,
                                         mca_coll_base_module_t *module)
{
    const mca_coll_hdring_args_t a = REDUCE_SCATTER_BLOCK;
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_BLOCKING, NULL);
}

int mca_coll_hdring_allgather(const void *sbuf, int scount, struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                              struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                              mca_coll_base_module_t *module)
{
    const mca_coll_hdring_args_t a = ALLGATHER;
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_BLOCKING, NULL);
}

int mca_coll_hdring_bcast(void *buf, int count, struct ompi_datatype_t *dtype, int root,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    const mca_coll_hdring_args_t a = BCAST;
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_BLOCKING, NULL);
}

int mca_coll_hdring_iallreduce(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                               struct ompi_op_t *op, struct ompi_communicator_t *comm, ompi_request_t **request,
                               mca_coll_base_module_t *module)
{
    const mca_coll_hdring_args_t a = ALLREDUCE;
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_NONBLOCKING, request);
}

int mca_coll_hdring_ireduce_scatter(const void *sbuf, void *rbuf, const int *rcounts, struct ompi_datatype_t *dtype,
                                    struct ompi_op_t *op, struct ompi_communicator_t *comm, ompi_request_t **request,
                                    mca_coll_base_module_t *module)
{
    const mca_coll_hdring_args_t a = REDUCE_SCATTER;
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_NONBLOCKING, request);
}

int mca_coll_hdring_ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, struct ompi_datatype_t *dtype,
                                          struct ompi_op_t *op, struct ompi_communicator_t *comm,
                                          ompi_request_t **request, mca_coll_base_module_t *module)
{
    const mca_coll_hdring_args_t a = REDUCE_SCATTER_BLOCK;
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_NONBLOCKING, request);
}

int mca_coll_hdring_iallgather(const void *sbuf, int scount, struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                               struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                               ompi_request_t **request, mca_coll_base_module_t *module)
{
    const mca_coll_hdring_args_t a = ALLGATHER;
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_NONBLOCKING, request);
}

int mca_coll_hdring_ibcast(void *buf, int count, struct ompi_datatype_t *dtype, int root,
                           struct ompi_communicator_t *comm, ompi_request_t **request, mca_coll_base_module_t *module)
{
    const mca_coll_hdring_args_t a = BCAST;
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_NONBLOCKING, request);
}

int mca_coll_hdring_allreduce_init(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                                   struct ompi_op_t *op, struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                   ompi_request_t **request, mca_coll_base_module_t *module)
{
    mca_coll_hdring_args_t a = ALLREDUCE;
    a.info = info;
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_PERSISTENT, request);
}

int mca_coll_hdring_reduce_scatter_init(const void *sbuf, void *rbuf, const int *rcounts,
                                        struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                        struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                        ompi_request_t **request, mca_coll_base_module_t *module)
{
    mca_coll_hdring_args_t a = REDUCE_SCATTER;
    a.info = info;
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_PERSISTENT, request);
}

int mca_coll_hdring_reduce_scatter_block_init(const void *sbuf, void *rbuf, int rcount, struct ompi_datatype_t *dtype,
                                              struct ompi_op_t *op, struct ompi_communicator_t *comm,
                                              struct ompi_info_t *info, ompi_request_t **request,
                                              mca_coll_base_module_t *module)
{
    mca_coll_hdring_args_t a = REDUCE_SCATTER_BLOCK;
    a.info = info;
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_PERSISTENT, request);
}

int mca_coll_hdring_allgather_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype, void *rbuf,
                                   int rcount, struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                                   struct ompi_info_t *info, ompi_request_t **request, mca_coll_base_module_t *module)
{
    mca_coll_hdring_args_t a = ALLGATHER;
    a.info = info;
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_PERSISTENT, request);
}

int mca_coll_hdring_bcast_init(void *buf, int count, struct ompi_datatype_t *dtype, int root,
                               struct ompi_communicator_t *comm, struct ompi_info_t *info, ompi_request_t **request,
                               mca_coll_base_module_t *module)
{
    mca_coll_hdring_args_t a = BCAST;
    a.info = info;
    return mca_coll_hdring_call(MODULE, comm, &a, MCA_COLL_HDRING_PERSISTENT, request);
}
