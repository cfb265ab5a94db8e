/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring parameters (coll_hdring_params.h): the MCA variables, registered with Open MPI, checked, and
 * snapshot for each new communicator.
 *
 * Every parameter is writable through MPI_T (scope ALL, settable) and read when a communicator is created: the
 * priority decides whether hdring serves the new communicator, the rest is copied into its setup.
 */
#include "coll_hdring_params.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"
#include "opal/mca/base/mca_base_vari.h" /* mca_base_var_file_value_t: the text a parameter file gave */
#include "ompi/mca/coll/base/coll_tags.h"

#include "coll_hdring_build.h"
#include "coll_hdring_util.h"
#include "hdring_defaults.h"

int mca_coll_hdring_priority = HDRING_DEFAULT_PRIORITY;

/* The variables' storage: what the user set (or the defaults), before validation. */
static mca_coll_hdring_config_t config;
/* The component the variables are registered for. */
static const mca_base_component_t *component;

/* ---- the MPI collectives: their names and the core collective serving each ---- */

typedef struct coll_params {
    const char *name;   /* as in coll_hdring_<name>_* */
    const char *mpi;    /* the MPI function */
    hdring_coll_t core;
    int tag;                /* of its messages */
    const char *bytes_help; /* which size the thresholds measure */
} coll_params_t;

static const coll_params_t coll_params[MCA_COLL_HDRING_NCOLLS] = {
    [MCA_COLL_HDRING_ALLREDUCE] = {"allreduce", "MPI_Allreduce", HDRING_COLL_ALLREDUCE, MCA_COLL_BASE_TAG_ALLREDUCE,
                                   "count x type size"},
    [MCA_COLL_HDRING_REDUCE_SCATTER] = {"reduce_scatter", "MPI_Reduce_scatter", HDRING_COLL_REDUCE_SCATTER,
                                        MCA_COLL_BASE_TAG_REDUCE_SCATTER, "sum of recvcounts x type size"},
    [MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK] = {"reduce_scatter_block", "MPI_Reduce_scatter_block",
                                              HDRING_COLL_REDUCE_SCATTER, MCA_COLL_BASE_TAG_REDUCE_SCATTER_BLOCK,
                                              "p x recvcount x type size"},
    [MCA_COLL_HDRING_ALLGATHER] = {"allgather", "MPI_Allgather", HDRING_COLL_ALLGATHER, MCA_COLL_BASE_TAG_ALLGATHER,
                                   "p x recvcount x receive type size"},
    [MCA_COLL_HDRING_BCAST] = {"bcast", "MPI_Bcast", HDRING_COLL_BCAST, MCA_COLL_BASE_TAG_BCAST,
                               "count x type size"},
};

hdring_coll_t mca_coll_hdring_core_coll(mca_coll_hdring_coll_t coll) { return coll_params[coll].core; }

int mca_coll_hdring_coll_tag(mca_coll_hdring_coll_t coll) { return coll_params[coll].tag; }

/* The cost model's parameters; their defaults: hdring_defaults.h. */

typedef struct model_param {
    const char *name, *help;
    double default_value;
    size_t offset;     /* in mca_coll_hdring_config_t */
    bool zero_allowed; /* a latency may be 0; a speed may not */
} model_param_t;

static const model_param_t model_params[] = {
    {"model_latency_us",
     "Cost model: time of one message between ranks of one node, microseconds (alpha): an effective value "
     "fitted from whole collectives (perf/tune.sh in hdring's source)",
     HDRING_DEFAULT_LATENCY_US, offsetof(mca_coll_hdring_config_t, model_latency_us), true},
    {"model_bandwidth_mbs", "Cost model: bandwidth of one direction between ranks of one node, MB/s (1/beta)",
     HDRING_DEFAULT_BANDWIDTH_MBS, offsetof(mca_coll_hdring_config_t, model_bandwidth_mbs), false},
    {"model_network_latency_us",
     "Cost model: time of one message on communicators whose ranks sit on more than one node, microseconds. "
     "hdring-tune measures it",
     HDRING_DEFAULT_NETWORK_LATENCY_US, offsetof(mca_coll_hdring_config_t, model_network_latency_us), true},
    {"model_network_bandwidth_mbs",
     "Cost model: bandwidth of one link direction on communicators whose ranks sit on more than one node, MB/s. "
     "hdring-tune measures it",
     HDRING_DEFAULT_NETWORK_BANDWIDTH_MBS, offsetof(mca_coll_hdring_config_t, model_network_bandwidth_mbs), false},
    {"model_network_exchange_mbs",
     "Cost model: bandwidth of each direction while ranks on different nodes exchange with one peer both ways at "
     "once (recursive doubling and halving, a ring of 2, Bruck's last step on 4 ranks), MB/s. 0 (default): "
     "coll_hdring_model_network_bandwidth_mbs, as on a full-duplex network. hdring-tune measures both",
     0, offsetof(mca_coll_hdring_config_t, model_network_exchange_mbs), true},
    {"model_reduce_mbs", "Cost model: speed of a local reduction, MB/s (1/gamma)", HDRING_DEFAULT_REDUCE_MBS,
     offsetof(mca_coll_hdring_config_t, model_reduce_mbs), false},
    {"model_eager_bytes",
     "Cost model: the largest message the PML sends between ranks of one node without a rendezvous (a round trip, "
     "2 latencies, before the data go), bytes. Unset: btl_" HDRING_SM_BTL "_eager_limit less ob1's header (" HDRING_EAGER_BYTES_TEXT
     " with its default). 0: no rendezvous",
     HDRING_SM_EAGER_LIMIT - HDRING_PML_EAGER_HEADER_BYTES, offsetof(mca_coll_hdring_config_t, model_eager_bytes), true},
    {"model_network_eager_bytes",
     "Cost model: the same between nodes. Unset: btl_tcp_eager_limit less ob1's header (" HDRING_NETWORK_EAGER_BYTES_TEXT
     " with its default); set it for other networks. 0: no rendezvous",
     HDRING_TCP_EAGER_LIMIT - HDRING_PML_EAGER_HEADER_BYTES, offsetof(mca_coll_hdring_config_t, model_network_eager_bytes), true},
};
#define NMODEL_PARAMS (sizeof(model_params) / sizeof(model_params[0]))

static double *model_value(mca_coll_hdring_config_t *cfg, const model_param_t *mp)
{
    return (double *) ((char *) cfg + mp->offset);
}

/* A model eager limit that, left at its default, follows a BTL's: coll_hdring_<param> then takes
 * btl_<btl>_eager_limit less the PML's header (hdring_pml_eager_bytes). The BTL's value is read once, at the
 * first snapshot (after MPI_Init opened the BTLs): the BTL keeps what it read at its own start. */
typedef struct eager_follow {
    const char *param, *btl;
    bool looked_up;
    const mca_base_var_t *own; /* coll_hdring_<param>: its source read directly, a few instructions per snapshot */
    bool found;                /* the BTL is loaded and said its limit */
    double bytes;
} eager_follow_t;

static eager_follow_t eager_follows[2] = {{"model_eager_bytes", HDRING_SM_BTL, false, NULL, false, 0},
                                          {"model_network_eager_bytes", "tcp", false, NULL, false, 0}};

static void look_up(eager_follow_t *f)
{
    const int theirs = mca_base_var_find("opal", "btl", f->btl, "eager_limit");
    const int own = mca_base_var_find("ompi", "coll", "hdring", f->param);
    const size_t *limit = NULL;
    f->looked_up = true;
    f->own = NULL;
    f->found = own >= 0 && OPAL_SUCCESS == mca_base_var_get(own, &f->own) && theirs >= 0 &&
               OPAL_SUCCESS == mca_base_var_get_value(theirs, &limit, NULL, NULL) && NULL != limit;
    f->bytes = f->found ? hdring_pml_eager_bytes(*limit, HDRING_PML_EAGER_HEADER_BYTES) : 0;
}

/* Whether the model's limit follows the BTL's now: the BTL said one and coll_hdring_<param> is at its default
 * (a value written through MPI_T is not, even one equal to the default). */
static bool follows_btl(eager_follow_t *f)
{
    if (!f->looked_up) {
        look_up(f);
    }
    return f->found && MCA_BASE_VAR_SOURCE_DEFAULT == f->own->mbv_source;
}

/* The network as measured at MPI_COMM_WORLD's creation (mca_coll_hdring_params_measured). */
static struct {
    unsigned version; /* 0: nothing measured */
    double latency_us, bandwidth_mbs, exchange_mbs;
} measured;

void mca_coll_hdring_params_measured(double latency_us, double bandwidth_mbs, double exchange_mbs)
{
    OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
    measured.latency_us = latency_us;
    measured.bandwidth_mbs = bandwidth_mbs;
    measured.exchange_mbs = exchange_mbs;
    ++measured.version;
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
}

/* Whether coll_hdring_<name> is at its default: set nowhere (not on the command line, in the environment, in a
 * file or through MPI_T). */
static bool at_default(const char *name)
{
    const mca_base_var_t *var;
    const int idx = mca_base_var_find("ompi", "coll", "hdring", name);
    return idx >= 0 && OPAL_SUCCESS == mca_base_var_get(idx, &var) && MCA_BASE_VAR_SOURCE_DEFAULT == var->mbv_source;
}

/* The component's values made usable (invalid ones replaced, with a report once), the eager limits followed and
 * the network's measured values taken where the parameters are at their defaults. */
static void validate(mca_coll_hdring_config_t *cfg, const bool follows[2])
{
    static bool warned[NMODEL_PARAMS], warned_message = false, warned_pieces = false;
    if (0 == cfg->max_message_elements || cfg->max_message_elements > INT_MAX) {
        if (!warned_message) {
            mca_coll_hdring_report("bad max message", cfg->max_message_elements, INT_MAX);
            warned_message = true;
        }
        cfg->max_message_elements = INT_MAX;
    }
    if (cfg->inline_pieces_bytes > HDRING_MAX_PIECES * HDRING_PML_INLINE_BYTES) {
        if (!warned_pieces) {
            mca_coll_hdring_report("bad inline pieces", cfg->inline_pieces_bytes,
                                   HDRING_MAX_PIECES * HDRING_PML_INLINE_BYTES, HDRING_DEFAULT_INLINE_PIECES_BYTES);
            warned_pieces = true;
        }
        cfg->inline_pieces_bytes = HDRING_DEFAULT_INLINE_PIECES_BYTES;
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
    if (follows[0]) {
        cfg->model_eager_bytes = eager_follows[0].bytes;
    }
    if (follows[1]) {
        cfg->model_network_eager_bytes = eager_follows[1].bytes;
    }
    if (0 != measured.version) {
        if (at_default("model_network_latency_us")) {
            cfg->model_network_latency_us = measured.latency_us;
        }
        if (at_default("model_network_bandwidth_mbs")) {
            cfg->model_network_bandwidth_mbs = measured.bandwidth_mbs;
        }
        if (at_default("model_network_exchange_mbs")) {
            cfg->model_network_exchange_mbs = measured.exchange_mbs;
        }
    }
}

/* Every new communicator takes a snapshot, and a process creates many over the same values: the last
 * validated one is kept, with the values and eager-limit sources it came from. */
unsigned mca_coll_hdring_config_snapshot(mca_coll_hdring_config_t *cfg)
{
    static struct {
        bool valid;
        bool follows[2];
        unsigned measured_version;
        unsigned generation;
        mca_coll_hdring_config_t given, used;
    } last;
    OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
    const bool follows[2] = {follows_btl(&eager_follows[0]), follows_btl(&eager_follows[1])};
    if (!last.valid || follows[0] != last.follows[0] || follows[1] != last.follows[1] ||
        last.measured_version != measured.version || 0 != memcmp(&last.given, &config, sizeof(last.given))) {
        memcpy(&last.given, &config, sizeof(last.given));
        memcpy(&last.used, &last.given, sizeof(last.used));
        validate(&last.used, follows);
        last.follows[0] = follows[0];
        last.follows[1] = follows[1];
        last.measured_version = measured.version;
        last.valid = true;
        ++last.generation;
    }
    *cfg = last.used;
    const unsigned generation = last.generation;
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
    return generation;
}

const char *mca_coll_hdring_coll_name(mca_coll_hdring_coll_t coll) { return coll_params[coll].name; }

/*
 * Values Open MPI would misread: it takes "abc" for the integer 0, "40x" for 40 and "fast" for the double 0.0,
 * and refuses a name its enum does not know by not loading the component at all. hdring checks the text each
 * parameter was given, keeps its default for a value it cannot read, and says so once (at MPI_Init).
 */
#define MAX_BAD_VALUES 8
static struct bad_value {
    char name[64], text[64], used[32];
    char valid[256]; /* an enum's names: a name it does not know */
} bad_values[MAX_BAD_VALUES];
static int nbad_values;

/* The text a parameter was given in the environment (mpirun --mca included) or a parameter file; NULL where it
 * keeps its default or was written through MPI_T. */
static const char *given_text(int idx)
{
    const mca_base_var_t *var;
    char env_name[128];

    if (idx < 0 || OPAL_SUCCESS != mca_base_var_get(idx, &var)) {
        return NULL;
    }
    switch (var->mbv_source) {
    case MCA_BASE_VAR_SOURCE_ENV:
    case MCA_BASE_VAR_SOURCE_COMMAND_LINE:
        snprintf(env_name, sizeof(env_name), "OMPI_MCA_%s", var->mbv_full_name);
        return getenv(env_name);
    case MCA_BASE_VAR_SOURCE_FILE:
    case MCA_BASE_VAR_SOURCE_OVERRIDE:
        return NULL == var->mbv_file_value ? NULL : ((mca_base_var_file_value_t *) var->mbv_file_value)->mbvfv_value;
    default:
        return NULL;
    }
}

/* Whether Open MPI reads `text` as what it says: a whole number (an optional k/m/g suffix, as Open MPI
 * accepts; not negative for sizes) or a whole floating-point number. */
static bool readable(const char *text, mca_base_var_type_t type)
{
    char *end;
    errno = 0;
    if (MCA_BASE_VAR_TYPE_DOUBLE == type) {
        (void) strtod(text, &end);
    } else {
        const long long v = strtoll(text, &end, 0);
        if (MCA_BASE_VAR_TYPE_SIZE_T == type && v < 0) {
            return false;
        }
        if (end != text && NULL != strchr("kKmMgG", *end) && '\0' != *end) {
            ++end;
        }
    }
    return 0 == errno && end != text && '\0' == *end;
}

static struct bad_value *note_bad_value(const char *name, const char *text, const char *used)
{
    if (nbad_values == MAX_BAD_VALUES) {
        return NULL;
    }
    struct bad_value *b = &bad_values[nbad_values++];
    snprintf(b->name, sizeof(b->name), "coll_hdring_%s", name);
    snprintf(b->text, sizeof(b->text), "%s", NULL == text ? "?" : text);
    snprintf(b->used, sizeof(b->used), "%s", used);
    b->valid[0] = '\0';
    return b;
}

/* An enum's names, space separated, into out. */
static void enum_names(mca_base_var_enum_t *e, char *out, size_t len)
{
    int count = 0;
    out[0] = '\0';
    (void) e->get_count(e, &count);
    for (int i = 0; i < count; ++i) {
        int value;
        const char *name = NULL;
        if (OPAL_SUCCESS == e->get_value(e, i, &value, &name) && NULL != name) {
            mca_coll_hdring_append(out, len, "%s%s", 0 == i ? "" : " ", name);
        }
    }
}

bool mca_coll_hdring_report_bad_values(void)
{
    bool stop = false;
    for (int i = 0; i < nbad_values; ++i) {
        const struct bad_value *b = &bad_values[i];
        if ('\0' != b->valid[0] && 0 != config.check_parameters) {
            mca_coll_hdring_report("unknown algorithm", b->name, b->text, b->valid);
            stop = true;
        } else {
            mca_coll_hdring_report("bad value", b->name, b->text, b->used);
        }
    }
    nbad_values = 0;
    return stop;
}

/* Registers a parameter whose storage holds its default. An enum value Open MPI does not know, or a number it
 * would misread, leaves the default in place and is reported (above). */
static int register_var(const char *name, const char *help, mca_base_var_type_t type, mca_base_var_enum_t *enumerator,
                        int level, void *storage)
{
    unsigned char fallback[sizeof(double) > sizeof(size_t) ? sizeof(double) : sizeof(size_t)];
    size_t width = 0; /* of the value, for the numeric types hdring registers */
    char used[32] = "";

    switch (type) {
    case MCA_BASE_VAR_TYPE_INT:
        width = sizeof(int);
        snprintf(used, sizeof(used), "%d", *(int *) storage);
        break;
    case MCA_BASE_VAR_TYPE_SIZE_T:
        width = sizeof(size_t);
        snprintf(used, sizeof(used), "%zu", *(size_t *) storage);
        break;
    case MCA_BASE_VAR_TYPE_DOUBLE:
        width = sizeof(double);
        snprintf(used, sizeof(used), "%g", *(double *) storage);
        break;
    default:
        break;
    }
    memcpy(fallback, storage, width);
    int idx = mca_base_component_var_register(component, name, help, type,
                                              enumerator, 0, MCA_BASE_VAR_FLAG_SETTABLE, level,
                                              MCA_BASE_VAR_SCOPE_ALL, storage);
    if (OPAL_ERR_VALUE_OUT_OF_BOUNDS == idx && NULL != enumerator) {
        /* registered, but Open MPI refused the value (and said so): the default stays */
        idx = mca_base_var_find("ompi", "coll", "hdring", name);
        if (idx >= 0) {
            char *value_name = NULL; /* allocated by the enum */
            (void) enumerator->string_from_value(enumerator, *(int *) storage, &value_name);
            struct bad_value *b = note_bad_value(name, given_text(idx), NULL == value_name ? used : value_name);
            if (NULL != b) {
                enum_names(enumerator, b->valid, sizeof(b->valid));
            }
            free(value_name);
        }
        return idx < 0 ? idx : OMPI_SUCCESS;
    }
    if (idx < 0) {
        return idx;
    }
    const char *text = NULL == enumerator && 0 != width ? given_text(idx) : NULL;
    if (NULL != text && !readable(text, type)) {
        memcpy(storage, fallback, width);
        note_bad_value(name, text, used);
    }
    return OMPI_SUCCESS;
}

/* ---- the parameters that decide which algorithm runs: every rank of a communicator must share them ---- */

typedef struct decisive {
    char name[64];   /* without coll_hdring_ */
    size_t offset;   /* of its value in mca_coll_hdring_config_t */
    mca_base_var_type_t type;
    bool file;       /* a file's name: its value is a hash of the name and of the file's text */
} decisive_t;

static decisive_t decisive[MCA_COLL_HDRING_MAX_DECISIVE];
static int ndecisive;

/* register_var for a parameter of the configuration that the decision (or where ranks sit) depends on. */
static int register_decisive(const char *name, const char *help, mca_base_var_type_t type,
                             mca_base_var_enum_t *enumerator, int level, void *storage)
{
    if (ndecisive == MCA_COLL_HDRING_MAX_DECISIVE) {
        return OMPI_ERR_OUT_OF_RESOURCE; /* raise MCA_COLL_HDRING_MAX_DECISIVE */
    }
    const int rc = register_var(name, help, type, enumerator, level, storage);
    if (OMPI_SUCCESS == rc) {
        decisive_t *d = &decisive[ndecisive++];
        snprintf(d->name, sizeof(d->name), "%s", name);
        d->offset = (size_t) ((char *) storage - (char *) &config);
        d->type = type;
        d->file = false;
    }
    return rc;
}

/* ---- files a parameter names, read once ---- */

#define MAX_FILES 4
static struct {
    char *path, *text;
    int error;
} files[MAX_FILES];
static int nfiles;

const char *mca_coll_hdring_params_file_text(const char *path, int *error)
{
    OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
    int f = 0;
    while (f < nfiles && 0 != strcmp(files[f].path, path)) {
        ++f;
    }
    if (f == nfiles && nfiles < MAX_FILES && NULL != (files[f].path = strdup(path))) {
        ++nfiles;
        files[f].text = NULL;
        files[f].error = 0;
        errno = 0;
        FILE *in = fopen(path, "r");
        long size = -1;
        if (NULL == in || 0 != fseek(in, 0, SEEK_END) || (size = ftell(in)) < 0 || 0 != fseek(in, 0, SEEK_SET) ||
            NULL == (files[f].text = calloc((size_t) size + 1, 1)) ||
            fread(files[f].text, 1, (size_t) size, in) != (size_t) size) {
            files[f].error = 0 != errno ? errno : EIO;
            free(files[f].text);
            files[f].text = NULL;
        }
        if (NULL != in) {
            fclose(in);
        }
    }
    const char *text = f < nfiles ? files[f].text : NULL;
    *error = f < nfiles ? files[f].error : ENOMEM;
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
    return text;
}

void mca_coll_hdring_params_close(void)
{
    for (int f = 0; f < nfiles; ++f) {
        free(files[f].path);
        free(files[f].text);
    }
    nfiles = 0;
}

int mca_coll_hdring_decisive_count(void) { return ndecisive; }

const char *mca_coll_hdring_decisive_name(int i) { return decisive[i].name; }

uint64_t mca_coll_hdring_decisive_value(const mca_coll_hdring_config_t *cfg, int i)
{
    const void *at = (const char *) cfg + decisive[i].offset;
    uint64_t value = 0;
    switch (decisive[i].type) {
    case MCA_BASE_VAR_TYPE_INT:
        value = (uint64_t) (int64_t) * (const int *) at;
        break;
    case MCA_BASE_VAR_TYPE_SIZE_T:
        value = *(const size_t *) at;
        break;
    case MCA_BASE_VAR_TYPE_DOUBLE:
        memcpy(&value, at, sizeof(value));
        break;
    case MCA_BASE_VAR_TYPE_STRING: { /* a hash of the text; unset and empty alike */
        const char *text = *(char *const *) at;
        value = mca_coll_hdring_hash(MCA_COLL_HDRING_HASH_SEED, text, NULL == text ? 0 : strlen(text));
        if (decisive[i].file && NULL != text && '\0' != text[0]) { /* and of the file's text */
            int error;
            const char *content = mca_coll_hdring_params_file_text(text, &error);
            value = mca_coll_hdring_hash(value, &error, sizeof(error));
            value = NULL == content ? value : mca_coll_hdring_hash(value, content, strlen(content));
        }
        break;
    }
    default:
        break;
    }
    return value;
}

void mca_coll_hdring_decisive_format(int i, uint64_t value, char *out, size_t len)
{
    double d;
    switch (decisive[i].type) {
    case MCA_BASE_VAR_TYPE_INT:
        snprintf(out, len, "%d", (int) (int64_t) value);
        break;
    case MCA_BASE_VAR_TYPE_DOUBLE:
        memcpy(&d, &value, sizeof(d));
        snprintf(out, len, "%g", d);
        break;
    case MCA_BASE_VAR_TYPE_STRING:
        snprintf(out, len, "a text hashing to %016" PRIx64, value);
        break;
    default:
        snprintf(out, len, "%" PRIu64, value);
        break;
    }
}

/* The name of the algorithm of a collective that has a role in the registry (hdring_registry.h). */
static const char *role_name(hdring_coll_t core, hdring_role_t role)
{
    hdring_alg_t algs[HDRING_NALGS];
    const int n = hdring_algorithms_of(core, algs);
    for (int a = 0; a < n; ++a) {
        if (hdring_algorithm(algs[a])->role == role) {
            return hdring_alg_name(algs[a]);
        }
    }
    return "?";
}

/* coll_hdring_<coll>_segment_bytes, for a collective with pipelined algorithms (named in `pipelined`). */
static int register_segment_bytes(mca_coll_hdring_coll_t coll, const char *pipelined)
{
    const coll_params_t *cp = &coll_params[coll];
    char name[64], *help = NULL;

    snprintf(name, sizeof(name), "%s_segment_bytes", cp->name);
    if (!mca_coll_hdring_grow(&help,
             "Bytes per segment of the pipelined %s algorithms (%s), which move their data in segments so that one "
             "segment's transfer overlaps the forwarding or reduction of another; a segment as large as a block "
             "moves it whole. 0 (default): the size the cost model finds fastest for each message and communicator "
             "(printed by the verbose trace)",
             cp->mpi, pipelined)) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    config.segment_bytes[coll] = 0;
    const int rc = register_decisive(name, help, MCA_BASE_VAR_TYPE_SIZE_T, NULL, OPAL_INFO_LVL_6,
                                     &config.segment_bytes[coll]);
    free(help);
    return rc;
}

static int register_collective(mca_coll_hdring_coll_t coll)
{
    const coll_params_t *cp = &coll_params[coll];
    mca_coll_hdring_config_t *cfg = &config;
    static const char *const kind[2] = {"pof2", "npof2"};
    static const char *const kind_help[2] = {"a power of two", "not a power of two"};
    char name[64], enum_name[96];
    char *help = NULL, *others = NULL, *pipelined = NULL; /* as long as the registry's lists make them */
    mca_base_var_enum_value_t values[HDRING_NALGS + 2];
    hdring_alg_t algs[HDRING_NALGS];
    mca_base_var_enum_t *algs_enum = NULL;
    int rc;

    /* the enum and its help, from the registry */
    const int nalgs = hdring_algorithms_of(cp->core, algs);
    values[0] = (mca_base_var_enum_value_t){0, "auto"};
    bool ok = mca_coll_hdring_grow(&help, "%s algorithm: auto (by message size and communicator size, see the "
                                   "%s_*_bytes_* parameters)", cp->mpi, cp->name);
    for (int a = 0; a < nalgs; ++a) { /* listed by value, as ompi_info shows them */
        const hdring_algorithm_t *row = hdring_algorithm(algs[a]);
        int at = a + 1;
        while (at > 1 && values[at - 1].value > row->mca_value) {
            values[at] = values[at - 1];
            --at;
        }
        values[at] = (mca_base_var_enum_value_t){row->mca_value, row->name};
        ok = ok && mca_coll_hdring_grow(&help, ", %s (%s)", row->name, row->summary);
        if (HDRING_ROLE_OTHER == row->role) {
            ok = ok && mca_coll_hdring_grow(&others, "%s%s", NULL != others ? ", " : "", row->name);
        }
        if (NULL != row->segment) {
            ok = ok && mca_coll_hdring_grow(&pipelined, "%s%s", NULL != pipelined ? ", " : "", row->name);
        }
    }
    values[nalgs + 1] = (mca_base_var_enum_value_t){0, NULL};
    snprintf(enum_name, sizeof(enum_name), "coll_hdring_%s_algorithms", cp->name);
    rc = ok ? mca_base_var_enum_create(enum_name, values, &algs_enum) : OMPI_ERR_OUT_OF_RESOURCE;
    if (OPAL_SUCCESS != rc) {
        goto out;
    }
    snprintf(name, sizeof(name), "%s_algorithm", cp->name);
    cfg->algorithm[coll] = 0;
    rc = register_decisive(name, help, MCA_BASE_VAR_TYPE_INT, algs_enum, OPAL_INFO_LVL_5, &cfg->algorithm[coll]);
    OBJ_RELEASE(algs_enum);
    if (OMPI_SUCCESS != rc) {
        goto out;
    }

    const char *latency = role_name(cp->core, HDRING_ROLE_LATENCY);
    const char *bandwidth = role_name(cp->core, HDRING_ROLE_BANDWIDTH);
    const bool reduces = HDRING_COLL_ALLREDUCE == cp->core || HDRING_COLL_REDUCE_SCATTER == cp->core;
    for (int k = HDRING_POF2; k <= HDRING_NPOF2 && OMPI_SUCCESS == rc; ++k) {
        char *small = NULL, *large = NULL;
        ok = mca_coll_hdring_grow(&small,
                 "With %s_algorithm auto and a communicator size that is %s: vectors of at most this many bytes "
                 "(%s) use %s. 0 (default): where the cost model (coll_hdring_model_*) puts the crossover for "
                 "each communicator size",
                 cp->name, kind_help[k], cp->bytes_help, latency) &&
             mca_coll_hdring_grow(&large,
                 "With %s_algorithm auto and a communicator size that is %s: vectors of at least this many bytes "
                 "(%s) use %s%s. 0 (default): where the cost model puts the crossover; between the thresholds the "
                 "model picks among %s",
                 cp->name, kind_help[k], cp->bytes_help, bandwidth,
                 reduces ? " (not for non-commutative operations)" : "", NULL != others ? others : latency);
        snprintf(name, sizeof(name), "%s_small_bytes_%s", cp->name, kind[k]);
        cfg->small_bytes[coll][k] = 0;
        rc = ok ? register_decisive(name, small, MCA_BASE_VAR_TYPE_SIZE_T, NULL, OPAL_INFO_LVL_6,
                                    &cfg->small_bytes[coll][k]) : OMPI_ERR_OUT_OF_RESOURCE;
        if (OMPI_SUCCESS == rc) {
            snprintf(name, sizeof(name), "%s_large_bytes_%s", cp->name, kind[k]);
            cfg->large_bytes[coll][k] = 0;
            rc = register_decisive(name, large, MCA_BASE_VAR_TYPE_SIZE_T, NULL, OPAL_INFO_LVL_6,
                                   &cfg->large_bytes[coll][k]);
        }
        free(small);
        free(large);
    }
    if (OMPI_SUCCESS == rc && NULL != pipelined) {
        rc = register_segment_bytes(coll, pipelined);
    }
out:
    free(help);
    free(others);
    free(pipelined);
    return rc;
}

int mca_coll_hdring_params_register(const mca_base_component_t *owner)
{
    component = owner;
    mca_coll_hdring_config_t *cfg = &config;
    int rc;

    ndecisive = 0;
    mca_coll_hdring_priority = HDRING_DEFAULT_PRIORITY;
    rc = register_var("priority",
                      "Priority of coll/hdring (tuned has 30; the highest priority serves each collective). "
                      "Negative: hdring serves no communicator. Read when each communicator is created, so a "
                      "program can write it through MPI_T and bind communicators to different components",
                      MCA_BASE_VAR_TYPE_INT, NULL, OPAL_INFO_LVL_6, &mca_coll_hdring_priority);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    cfg->verbose = 0;
    rc = register_var("verbose",
                      "Trace level. 1: for every call, rank 0 of the communicator prints "
                      "'hdring: <coll> np=<p> bytes=<n> alg=<algorithm> (<reason>)', alg=fallback when the call "
                      "is handed to the next component; nonblocking calls name their kind (iallreduce), persistent "
                      "ones theirs when they are initialised (allreduce_init). 2: also, for each call, whether its "
                      "schedule was built for it or taken from the communicator's cache, and its steps. Every "
                      "communicator creation is traced from 1 too (where its ranks sit)",
                      MCA_BASE_VAR_TYPE_INT, NULL, OPAL_INFO_LVL_5, &cfg->verbose);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    cfg->trace_changes = 0;
    rc = register_var("trace_changes",
                      "1: rank 0 of each communicator prints the trace line of coll_hdring_verbose 1 only for the "
                      "calls whose arguments (counts, datatypes, op, root, in place) differ from their "
                      "collective's previous call on the communicator: one line per size of a benchmark rather "
                      "than one per call, cheap enough to leave on while timing. perf/osu-driver.sh uses it to "
                      "prove that hdring served. Ranks may differ",
                      MCA_BASE_VAR_TYPE_INT, NULL, OPAL_INFO_LVL_5, &cfg->trace_changes);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    for (size_t i = 0; i < NMODEL_PARAMS; ++i) {
        double *storage = model_value(cfg, &model_params[i]);
        *storage = model_params[i].default_value;
        rc = register_decisive(model_params[i].name, model_params[i].help, MCA_BASE_VAR_TYPE_DOUBLE, NULL,
                               OPAL_INFO_LVL_6, storage);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
    }
    cfg->model_cores = 0;
    rc = register_decisive("model_cores",
                           "Cost model: cores a node's ranks copy messages in and reduce on. When a step keeps more "
                           "of a node's ranks busy than it has cores, the model charges them that much longer (so "
                           "on an oversubscribed node it prefers steps that keep few ranks busy, such as the pairs of "
                           "rhd over a ring). 0 (default): the cores Open MPI's topology (hwloc) finds, for "
                           "communicators whose ranks share one node or exchange their nodes' core counts (several "
                           "nodes of several ranks; the fewest counts); otherwise a core per rank. -1: a core per "
                           "rank always. N: N per node. The trace names the count (\"1 node, 2 cores each\") when "
                           "a node holds more ranks than that. At 0 only, nodes the runtime names apart that run on "
                           "one machine (containers, network namespaces: one kernel boot id) are found too, and a "
                           "step whose messages across keep more of the machine's ranks busy than it has cores takes "
                           "at least that many of their latencies (\"5 nodes x 1, on one machine of 2 cores\")",
                           MCA_BASE_VAR_TYPE_INT, NULL, OPAL_INFO_LVL_6, &cfg->model_cores);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    cfg->scratch_cache_bytes = 16 << 20;
    rc = register_var("scratch_cache_bytes",
                      "Scratch memory each communicator keeps between its blocking calls, in bytes (allocated when "
                      "first needed). Calls needing more, and nonblocking calls, allocate and free their own",
                      MCA_BASE_VAR_TYPE_SIZE_T, NULL, OPAL_INFO_LVL_6, &cfg->scratch_cache_bytes);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    cfg->nonblocking = 1;
    rc = register_decisive("nonblocking",
                      "Whether hdring serves the nonblocking (MPI_Iallreduce, ...) and persistent (MPI_Allreduce_init, "
                      "...; MPIX_ in Open MPI 4.1) forms of the collectives it provides, with the same algorithms "
                      "and bits as the blocking ones. 1 (default): yes; 0: they go to the next component (libnbc). "
                      "Set it alike on every rank",
                      MCA_BASE_VAR_TYPE_INT, NULL, OPAL_INFO_LVL_6, &cfg->nonblocking);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    cfg->tolerant = 0;
    rc = register_decisive("tolerant",
                      "Open MPI 5 with ULFM (mpirun --with-ft ulfm): 1 makes every blocking allreduce tolerant. One "
                      "that loses a rank still completes, on every survivor alike, with the error class "
                      "MPI_ERR_PROC_FAILED (set MPI_ERRORS_RETURN to see it) and the reduction of the survivors' "
                      "contributions, or of every rank's when the lost rank died after giving its own (the same bits "
                      "on each survivor); the program then shrinks the communicator to go on (MPIX_Comm_shrink), as "
                      "ULFM requires after any failure. A rank that already knew of the loss when it called gets "
                      "Open MPI's own MPI_ERR_PROC_FAILED, its buffer untouched (README, known issues). Each call "
                      "costs an agreement among the ranks (MPIX_Comm_agree), and a copy of the vector with "
                      "MPI_IN_PLACE. 0 (default): a failure is an error, as with any component. Open MPI 4.1 has no "
                      "ULFM: there it is ignored. Set it alike on every rank",
                      MCA_BASE_VAR_TYPE_INT, NULL, OPAL_INFO_LVL_6, &cfg->tolerant);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    cfg->calibrate = 1;
    rc = register_decisive("calibrate",
                      "1 (default): when MPI_COMM_WORLD spans several nodes, hdring measures the network once, at "
                      "its creation: the leaders of pairs of nodes time small and large messages between them "
                      "(one way and both ways at once), every rank agrees on the means, and the cost model uses "
                      "them for coll_hdring_model_network_latency_us, _bandwidth_mbs and _exchange_mbs where those "
                      "are left at their defaults (a value set on the command line, in the environment or in a "
                      "parameter file, hdring-tune's included, wins). It adds about 20 ms to MPI_Init at 200 Mbit/s, "
                      "less on faster networks. On any error, or when pairs disagree by more than a factor of 2, the "
                      "defaults stay and rank 0 says so once; nodes with more ranks than cores are not measured (the "
                      "timings would be the scheduler's); coll_hdring_verbose 1 prints what was measured or why not. "
                      "0: never measure. Set it alike on every rank",
                      MCA_BASE_VAR_TYPE_INT, NULL, OPAL_INFO_LVL_5, &cfg->calibrate);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    cfg->node_map = NULL;
    rc = register_decisive("node_map",
                           "Imposes where the processes sit instead of asking the runtime: a comma-separated list "
                           "giving, for each rank of MPI_COMM_WORLD in order, a number naming its node (\"0,0,1,1\": "
                           "ranks 0 and 1 share a node, 2 and 3 another). For machines whose runtime misreports "
                           "locality, and for tests of the hierarchical algorithms on one machine. Only where ranks "
                           "sit changes, so results stay correct whatever it says; a malformed map is reported and "
                           "ignored. Empty (default): the runtime's host names",
                           MCA_BASE_VAR_TYPE_STRING, NULL, OPAL_INFO_LVL_9, &cfg->node_map);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    static mca_base_var_enum_value_t select_values[] = {{MCA_COLL_HDRING_SELECT_MODEL, "model"},
                                                        {MCA_COLL_HDRING_SELECT_AUTO, "auto"},
                                                        {MCA_COLL_HDRING_SELECT_MEASURED, "measured"},
                                                        {0, NULL}};
    mca_base_var_enum_t *select_enum = NULL;
    rc = mca_base_var_enum_create("coll_hdring_selects", select_values, &select_enum);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    cfg->select = MCA_COLL_HDRING_SELECT_AUTO;
    rc = register_decisive("select",
                           "How the automatic choice decides, where no coll_hdring_<coll>_algorithm, threshold or "
                           "coll_hdring_decisions_file entry does. auto (default): a blocking call whose result no "
                           "algorithm can change (allgather, bcast, and predefined reductions of integers) is "
                           "measured: the "
                           "first calls of each size range (at most a factor of 2 wide) try the cost model's best "
                           "algorithms and the fallback (the component hdring would hand the call to), each a few "
                           "times in turn; all ranks then agree, from the slowest rank's times, on the fastest, and "
                           "keep it. The model's choice stays unless another is clearly faster. Other calls "
                           "(floating-point and user-defined reductions) follow the model, so that every run of a job "
                           "gives the same bits. measured: every blocking call is measured; floating-point results "
                           "may then differ in their last bits from run to run (on every rank alike), unless a "
                           "decisions file fixes the choices. model: nothing is measured. Nonblocking and persistent "
                           "calls use what blocking calls decided (the fastest of hdring's own when that was the "
                           "fallback), or the model. Set it alike on every rank",
                           MCA_BASE_VAR_TYPE_INT, select_enum, OPAL_INFO_LVL_4, &cfg->select);
    OBJ_RELEASE(select_enum);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    cfg->decisions_file = NULL;
    rc = register_decisive("decisions_file",
                           "A file of decisions: which algorithm (or fallback) serves a collective of a size range "
                           "on communicators of a size and ranks per node, one per line (\"4 4 allreduce 1024 2047 "
                           "rhd\"; README: Tuning). Read when the first communicator is created; its decisions "
                           "win over the model and over measuring (coll_hdring_select), so a job that reads one "
                           "measures only what it lacks. At MPI_Finalize rank 0 of MPI_COMM_WORLD adds what its "
                           "communicators measured, replacing the file at once (a new file, renamed). A missing file "
                           "starts empty; lines hdring cannot read are "
                           "reported and ignored. Every rank must read the same text",
                           MCA_BASE_VAR_TYPE_STRING, NULL, OPAL_INFO_LVL_4, &cfg->decisions_file);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    decisive[ndecisive - 1].file = true;
    cfg->select_slow_rank = -1;
    rc = register_var("select_slow_rank",
                      "For tests of measured selection: this rank of every communicator (-1, default: none) spins "
                      "coll_hdring_select_slow_us microseconds more in each timed trial call of the model's choice, so "
                      "that the model's choice is slow on one rank only. Every rank must then still keep the same "
                      "candidate, decided from the slowest rank's times",
                      MCA_BASE_VAR_TYPE_INT, NULL, OPAL_INFO_LVL_9, &cfg->select_slow_rank);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    cfg->select_slow_us = 0;
    rc = register_var("select_slow_us",
                      "For tests: how many microseconds coll_hdring_select_slow_rank adds to each timed trial call of "
                      "the model's choice (0, default: none)",
                      MCA_BASE_VAR_TYPE_INT, NULL, OPAL_INFO_LVL_9, &cfg->select_slow_us);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    cfg->check_parameters = 1;
    rc = register_var("check_parameters",
                      "Which new communicators check that all their ranks run with the same values of the parameters "
                      "that decide which algorithm runs (coll_hdring_<coll>_algorithm, the thresholds, the model, "
                      "the node map), with one exchange of 8 bytes per rank: ranks running different algorithms "
                      "would hang. Where they differ (a parameter file on some nodes only, say), rank 0 of the "
                      "communicator says which differ on which ranks and hdring leaves the communicator to the next "
                      "component. 1 (default): MPI_COMM_WORLD, and every communicator after MPI_COMM_WORLD "
                      "disagreed or was not hdring's, or that holds processes of other jobs (values written through "
                      "MPI_T after MPI_Init must then be written alike on every rank); 2: every communicator; 0: "
                      "none. Set it alike on every rank",
                      MCA_BASE_VAR_TYPE_INT, NULL, OPAL_INFO_LVL_6, &cfg->check_parameters);
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
    cfg->inline_pieces_bytes = HDRING_DEFAULT_INLINE_PIECES_BYTES;
    rc = register_decisive("inline_pieces_bytes",
                           "Messages between ranks of a node that holds more ranks than cores (as "
                           "coll_hdring_model_cores counts them) of more than 256 bytes and at most this many go to "
                           "the PML as pieces of at most 256 bytes: ob1 sends those inline, without the send request "
                           "a larger message waits for, which on a crowded node costs a turn of the scheduler. "
                           "Collectives of 300 B to 2 KiB measured up to 3x faster with pieces at 3 to 5 ranks on 2 "
                           "cores; with a core per rank, pieces are slower and never used (HOW-IT-WORKS.md). "
                           "Allreduce cuts at most 512 bytes where a rank may have a core of its own (fewer than "
                           "two ranks per core). 0 to 2048; 0: every message whole. Set it alike on every rank",
                           MCA_BASE_VAR_TYPE_SIZE_T, NULL, OPAL_INFO_LVL_9, &cfg->inline_pieces_bytes);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    for (int c = 0; c < MCA_COLL_HDRING_NCOLLS; ++c) {
        rc = register_collective((mca_coll_hdring_coll_t) c);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
    }
    return OMPI_SUCCESS;
}
