/*
 * coll/hdring component: registration and MCA parameters.
 *
 * Every parameter is writable through MPI_T (scope ALL, settable) and read when a communicator is created:
 * the priority decides whether hdring serves the new communicator, the rest is copied into its module.
 */
#define _GNU_SOURCE /* dladdr */
#include "ompi_config.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"
#include "opal/util/output.h"
#include "opal/util/show_help.h"
#include "ompi/mca/rte/rte.h"

#include "coll_hdring.h"

static int hdring_register(void);
static int hdring_open(void);
static int hdring_close(void);

mca_coll_hdring_component_t mca_coll_hdring_component = {
    .super = {
        .collm_version = {
            MCA_COLL_BASE_VERSION_2_0_0,
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
    .output = -1,
};

/* ---- algorithm enums: MCA value -> algorithm, per collective ---- */

static const mca_base_var_enum_value_t allreduce_values[] = {
    {0, "auto"}, {1, "ring"}, {2, "rhd"}, {3, "binary_blocks"}, {4, "recursive_doubling"}, {0, NULL}};
static const hdring_alg_t allreduce_algs[] = {HDRING_ALG_RING, HDRING_ALG_RING, HDRING_ALG_RHD,
                                              HDRING_ALG_BINARY_BLOCKS, HDRING_ALG_RECURSIVE_DOUBLING};

static const mca_base_var_enum_value_t vector_values[] = {
    {0, "auto"}, {1, "ring"}, {2, "rhd"}, {3, "binary_blocks"}, {0, NULL}};
static const hdring_alg_t vector_algs[] = {HDRING_ALG_RING, HDRING_ALG_RING, HDRING_ALG_RHD,
                                           HDRING_ALG_BINARY_BLOCKS};

static const mca_base_var_enum_value_t bcast_values[] = {
    {0, "auto"}, {1, "binomial"}, {2, "scatter_rhd"}, {3, "scatter_ring"}, {0, NULL}};
static const hdring_alg_t bcast_algs[] = {HDRING_ALG_BINOMIAL, HDRING_ALG_BINOMIAL, HDRING_ALG_SCATTER_RHD,
                                          HDRING_ALG_SCATTER_RING};

typedef struct coll_params {
    const char *name;
    const mca_base_var_enum_value_t *values;
    const hdring_alg_t *algs; /* indexed by MCA value; [0] (auto) unused */
    const char *algorithm_help;
    const char *small_help; /* what the small regime uses */
    const char *medium_help; /* what the model chooses from between the thresholds */
    const char *large_help;
    const char *bytes_help; /* which size the thresholds measure */
} coll_params_t;

static const coll_params_t coll_params[HDRING_NCOLLS] = {
    [HDRING_ALLREDUCE] = {
        "allreduce", allreduce_values, allreduce_algs,
        "MPI_Allreduce algorithm: auto (by message size and communicator size, see the allreduce_*_bytes_* "
        "parameters), ring (bandwidth-optimal for any size, latency linear in p; commutative ops only), rhd "
        "(recursive halving-doubling; sizes that are not a power of two fold first), binary_blocks (p split "
        "into power-of-two blocks, no rank folded away), recursive_doubling (latency-optimal, for small "
        "vectors)",
        "recursive_doubling", "among rhd, binary_blocks and ring", "ring",
        "count x type size"},
    [HDRING_REDUCE_SCATTER] = {
        "reduce_scatter", vector_values, vector_algs,
        "MPI_Reduce_scatter algorithm: auto (by message size and communicator size, see the "
        "reduce_scatter_*_bytes_* parameters), ring (bandwidth-optimal for any size, latency linear in p; "
        "commutative ops only), rhd (recursive halving; sizes that are not a power of two fold first), "
        "binary_blocks (p split into power-of-two blocks)",
        "rhd", "among binary_blocks and ring", "ring",
        "sum of recvcounts x type size"},
    [HDRING_REDUCE_SCATTER_BLOCK] = {
        "reduce_scatter_block", vector_values, vector_algs,
        "MPI_Reduce_scatter_block algorithm: auto (by message size and communicator size, see the "
        "reduce_scatter_block_*_bytes_* parameters), ring, rhd, binary_blocks (as for reduce_scatter)",
        "rhd", "among binary_blocks and ring", "ring",
        "p x recvcount x type size"},
    [HDRING_ALLGATHER] = {
        "allgather", vector_values, vector_algs,
        "MPI_Allgather algorithm: auto (by message size and communicator size, see the allgather_*_bytes_* "
        "parameters), ring (bandwidth-optimal, latency linear in p), rhd (recursive doubling; sizes that are "
        "not a power of two fold), binary_blocks (p split into power-of-two blocks)",
        "rhd", "among binary_blocks and ring", "ring",
        "p x recvcount x receive type size"},
    [HDRING_BCAST] = {
        "bcast", bcast_values, bcast_algs,
        "MPI_Bcast algorithm: auto (by message size and communicator size, see the bcast_*_bytes_* "
        "parameters), binomial (binomial tree, for small messages), scatter_rhd (binomial scatter + "
        "recursive-doubling allgather), scatter_ring (binomial scatter + ring allgather)",
        "binomial", "scatter_rhd or scatter_ring", "scatter_ring",
        "count x type size"},
};

/* The cost model's parameters. Node-local defaults: fitted to every algorithm measured side by side on the
 * development machine (2 cores, shared memory, 2 to 8 ranks), README.md "Tuning" says how. Network defaults,
 * for communicators whose ranks sit on more than one node: see README.md "Tuning". Measure yours. */
#define MODEL_NETWORK_LATENCY_US 20.0
#define MODEL_NETWORK_BANDWIDTH_MBS 1250.0

typedef struct model_param {
    const char *name, *help;
    double default_value;
    size_t offset;     /* in mca_coll_hdring_config_t */
    bool zero_allowed; /* a latency may be 0; a speed may not */
} model_param_t;

static const model_param_t model_params[] = {
    {"model_latency_us",
     "Cost model: time of one message between ranks of one node, microseconds (alpha). Measure with "
     "hdring_calibrate",
     10.0, offsetof(mca_coll_hdring_config_t, model_latency_us), true},
    {"model_bandwidth_mbs", "Cost model: bandwidth of one direction between ranks of one node, MB/s (1/beta)",
     10000.0, offsetof(mca_coll_hdring_config_t, model_bandwidth_mbs), false},
    {"model_network_latency_us",
     "Cost model: time of one message on communicators whose ranks sit on more than one node, microseconds",
     MODEL_NETWORK_LATENCY_US, offsetof(mca_coll_hdring_config_t, model_network_latency_us), true},
    {"model_network_bandwidth_mbs",
     "Cost model: bandwidth of one link direction on communicators whose ranks sit on more than one node, MB/s",
     MODEL_NETWORK_BANDWIDTH_MBS, offsetof(mca_coll_hdring_config_t, model_network_bandwidth_mbs), false},
    {"model_reduce_mbs", "Cost model: speed of a local reduction, MB/s (1/gamma)", 10000.0,
     offsetof(mca_coll_hdring_config_t, model_reduce_mbs), false},
};
#define NMODEL_PARAMS (sizeof(model_params) / sizeof(model_params[0]))

static double *model_value(mca_coll_hdring_config_t *cfg, const model_param_t *mp)
{
    return (double *) ((char *) cfg + mp->offset);
}

hdring_alg_t mca_coll_hdring_forced_alg(hdring_coll_t coll, int value) { return coll_params[coll].algs[value]; }

void mca_coll_hdring_report(const char *topic, ...)
{
    if (0 != OMPI_PROC_MY_NAME->vpid) {
        return;
    }
    va_list ap;
    va_start(ap, topic);
    char *msg = opal_show_help_vstring("help-coll-hdring.txt", topic, true, ap);
    va_end(ap);
    if (NULL != msg) {
        fputs(msg, stderr);
        fflush(stderr);
        free(msg);
    }
}

void mca_coll_hdring_config_snapshot(mca_coll_hdring_config_t *cfg)
{
    static bool warned[NMODEL_PARAMS], warned_message = false;
    *cfg = mca_coll_hdring_component.config;
    if (0 == cfg->max_message_elements || cfg->max_message_elements > INT_MAX) {
        if (!warned_message) {
            mca_coll_hdring_report("bad max message", cfg->max_message_elements, INT_MAX);
            warned_message = true;
        }
        cfg->max_message_elements = INT_MAX;
    }
    /* negative or zero speeds would turn the model's times into nonsense: say so once, use the default */
    for (size_t i = 0; i < NMODEL_PARAMS; ++i) {
        double *v = model_value(cfg, &model_params[i]);
        if (model_params[i].zero_allowed ? *v >= 0 : *v > 0) {
            continue;
        }
        if (!warned[i]) {
            mca_coll_hdring_report("bad model", model_params[i].name, *v,
                                   model_params[i].zero_allowed ? "0 or more" : "more than 0",
                                   model_params[i].default_value);
            warned[i] = true;
        }
        *v = model_params[i].default_value;
    }
}

const char *mca_coll_hdring_coll_name(hdring_coll_t coll) { return coll_params[coll].name; }

static int register_var(const char *name, const char *help, mca_base_var_type_t type, mca_base_var_enum_t *enumerator,
                        int level, void *storage)
{
    int idx = mca_base_component_var_register(&mca_coll_hdring_component.super.collm_version, name, help, type,
                                              enumerator, 0, MCA_BASE_VAR_FLAG_SETTABLE, level,
                                              MCA_BASE_VAR_SCOPE_ALL, storage);
    return idx < 0 ? idx : OMPI_SUCCESS;
}

static int register_collective(hdring_coll_t coll)
{
    const coll_params_t *cp = &coll_params[coll];
    mca_coll_hdring_config_t *cfg = &mca_coll_hdring_component.config;
    static const char *const kind[2] = {"pof2", "npof2"};
    static const char *const kind_help[2] = {"a power of two", "not a power of two"};
    char name[64], enum_name[96], help[512];
    mca_base_var_enum_t *algs = NULL;
    int rc;

    snprintf(enum_name, sizeof(enum_name), "coll_hdring_%s_algorithms", cp->name);
    rc = mca_base_var_enum_create(enum_name, cp->values, &algs);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    snprintf(name, sizeof(name), "%s_algorithm", cp->name);
    cfg->algorithm[coll] = 0;
    rc = register_var(name, cp->algorithm_help, MCA_BASE_VAR_TYPE_INT, algs, OPAL_INFO_LVL_5,
                      &cfg->algorithm[coll]);
    OBJ_RELEASE(algs);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }

    for (int k = HDRING_POF2; k <= HDRING_NPOF2; ++k) {
        snprintf(name, sizeof(name), "%s_small_bytes_%s", cp->name, kind[k]);
        snprintf(help, sizeof(help),
                 "With %s_algorithm auto and a communicator size that is %s: vectors of at most this many bytes "
                 "(%s) use %s. 0 (default): where the cost model (coll_hdring_model_*) puts the crossover for "
                 "each communicator size",
                 cp->name, kind_help[k], cp->bytes_help, cp->small_help);
        cfg->small_bytes[coll][k] = 0;
        rc = register_var(name, help, MCA_BASE_VAR_TYPE_SIZE_T, NULL, OPAL_INFO_LVL_6, &cfg->small_bytes[coll][k]);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
        snprintf(name, sizeof(name), "%s_large_bytes_%s", cp->name, kind[k]);
        snprintf(help, sizeof(help),
                 "With %s_algorithm auto and a communicator size that is %s: vectors of at least this many bytes "
                 "(%s) use %s (not for non-commutative operations). 0 (default): where the cost model puts the "
                 "crossover; between the thresholds the model picks %s",
                 cp->name, kind_help[k], cp->bytes_help, cp->large_help, cp->medium_help);
        cfg->large_bytes[coll][k] = 0;
        rc = register_var(name, help, MCA_BASE_VAR_TYPE_SIZE_T, NULL, OPAL_INFO_LVL_6, &cfg->large_bytes[coll][k]);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
    }
    return OMPI_SUCCESS;
}

static int hdring_register(void)
{
    mca_coll_hdring_config_t *cfg = &mca_coll_hdring_component.config;
    int rc;

    mca_coll_hdring_component.priority = HDRING_DEFAULT_PRIORITY;
    rc = register_var("priority",
                      "Priority of coll/hdring (tuned has 30; the highest priority serves each collective). "
                      "Negative: hdring serves no communicator. Read when each communicator is created, so a "
                      "program can write it through MPI_T and bind communicators to different components",
                      MCA_BASE_VAR_TYPE_INT, NULL, OPAL_INFO_LVL_6, &mca_coll_hdring_component.priority);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    cfg->verbose = 0;
    rc = register_var("verbose",
                      "Trace level. 1: for every call, rank 0 of the communicator prints "
                      "'hdring: <coll> np=<p> bytes=<n> alg=<algorithm> (<reason>)', alg=fallback when the call "
                      "is handed to the next component",
                      MCA_BASE_VAR_TYPE_INT, NULL, OPAL_INFO_LVL_5, &cfg->verbose);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    for (size_t i = 0; i < NMODEL_PARAMS; ++i) {
        double *storage = model_value(cfg, &model_params[i]);
        *storage = model_params[i].default_value;
        rc = register_var(model_params[i].name, model_params[i].help, MCA_BASE_VAR_TYPE_DOUBLE, NULL,
                          OPAL_INFO_LVL_6, storage);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
    }
    cfg->scratch_cache_bytes = 16 << 20;
    rc = register_var("scratch_cache_bytes",
                      "Scratch memory each communicator keeps between calls, in bytes (allocated when first "
                      "needed). Calls needing more allocate and free their own",
                      MCA_BASE_VAR_TYPE_SIZE_T, NULL, OPAL_INFO_LVL_6, &cfg->scratch_cache_bytes);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    cfg->max_message_elements = INT_MAX;
    rc = register_var("max_message_elements",
                      "Most elements one point-to-point message carries as a plain (count, datatype) pair, 1 to "
                      "2147483647 (the default, MPI's int limit). A longer message still goes as one message, "
                      "of a derived datatype. Lower it only to test that path",
                      MCA_BASE_VAR_TYPE_SIZE_T, NULL, OPAL_INFO_LVL_9, &cfg->max_message_elements);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    for (int c = 0; c < HDRING_NCOLLS; ++c) {
        rc = register_collective((hdring_coll_t) c);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
    }
    return OMPI_SUCCESS;
}

/* The help file is installed next to the component, wherever that is (system, per user, test stage). */
static void add_help_dir(void)
{
    Dl_info info;
    if (0 != dladdr(&mca_coll_hdring_component, &info) && NULL != info.dli_fname) {
        char *path = strdup(info.dli_fname);
        if (NULL != path) {
            opal_show_help_add_dir(dirname(path));
            free(path);
        }
    }
}

static int hdring_open(void)
{
    opal_output_stream_t trace;

    add_help_dir();
    /* The trace goes to stderr without opal's "[host:pid]" prefix: one line per call, as documented. */
    OBJ_CONSTRUCT(&trace, opal_output_stream_t);
    trace.lds_want_stderr = true;
    trace.lds_verbose_level = 1;
    mca_coll_hdring_component.output = opal_output_open(&trace);
    OBJ_DESTRUCT(&trace);
    return OMPI_SUCCESS;
}

static int hdring_close(void)
{
    if (mca_coll_hdring_component.output >= 0) {
        opal_output_close(mca_coll_hdring_component.output);
        mca_coll_hdring_component.output = -1;
    }
    return OMPI_SUCCESS;
}
