/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring component: what Open MPI loads. Its parameters (coll_hdring_params.c), opening and closing what the
 * process's communicators share, and the query of each new one (coll_hdring_module.c).
 */
#include "coll_hdring.h"

#include "coll_hdring_build.h"
#include "coll_hdring_module.h"
#include "coll_hdring_decisions.h"
#include "coll_hdring_prepared.h"
#include "coll_hdring_setup.h"
#include "coll_hdring_util.h"

static int hdring_register(void);
static int hdring_open(void);
static int hdring_close(void);

typedef struct mca_coll_hdring_component_t {
    mca_coll_base_component_t super;
} mca_coll_hdring_component_t;

/* The one symbol the component exports: Open MPI finds the component by it (-fvisibility=hidden hides the rest). */
extern __attribute__((visibility("default"))) mca_coll_hdring_component_t mca_coll_hdring_component;

mca_coll_hdring_component_t mca_coll_hdring_component = {
    .super = {
        .collm_version = {
            HDRING_COLL_BASE_VERSION,
            .mca_component_name = "hdring",
            MCA_BASE_MAKE_VERSION(component, 0, 1, 0),
            .mca_open_component = hdring_open,
            .mca_close_component = hdring_close,
            .mca_register_component_params = hdring_register,
        },
        .collm_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
        .collm_init_query = mca_coll_hdring_init_query,
        .collm_comm_query = mca_coll_hdring_comm_query,
    },
};

static int hdring_register(void)
{
    return mca_coll_hdring_params_register(&mca_coll_hdring_component.super.collm_version);
}

static int hdring_open(void)
{
    mca_coll_hdring_util_open();
    mca_coll_hdring_prepared_open();
    mca_coll_hdring_machine_publish();
    return OMPI_SUCCESS;
}

static int hdring_close(void)
{
    mca_coll_hdring_prepared_close();
    mca_coll_hdring_setup_forget_all();
    mca_coll_hdring_decisions_close();
    mca_coll_hdring_params_close();
    mca_coll_hdring_util_close();
    return OMPI_SUCCESS;
}
