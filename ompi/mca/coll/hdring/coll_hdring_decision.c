/*
 * coll/hdring decision: which algorithm serves a call, and why.
 *
 * The only place that chooses. A forced algorithm (coll_hdring_<coll>_algorithm) runs when it can serve the
 * call; with auto, the message size picks a regime (small / medium / large, thresholds per collective and per
 * "p is a power of two or not") and the regime an algorithm. Whatever cannot be served correctly goes to the
 * fallback, and the reason says so.
 */
#include "ompi_config.h"

#include <stdio.h>

#include "opal/util/output.h"

#include "coll_hdring.h"
#include "hdring_pattern.h"

/* Algorithms each collective has. */
static bool implemented(hdring_coll_t coll, hdring_alg_t alg)
{
    switch (coll) {
    case HDRING_ALLREDUCE:
        return hdring_allreduce_has(alg);
    case HDRING_REDUCE_SCATTER:
    case HDRING_REDUCE_SCATTER_BLOCK:
        return hdring_reduce_scatter_has(alg);
    case HDRING_ALLGATHER:
        return hdring_allgather_has(alg);
    default:
        return hdring_bcast_has(alg);
    }
}

static hdring_alg_t auto_choice(const mca_coll_hdring_config_t *cfg, const mca_coll_hdring_call_t *call,
                                const char **why)
{
    const int kind = hdring_is_pow2(call->comm_size) ? HDRING_POF2 : HDRING_NPOF2;
    const bool pof2 = HDRING_POF2 == kind;

    if (call->bytes <= cfg->small_bytes[call->coll][kind]) {
        *why = pof2 ? "auto: small, p power of two" : "auto: small, p not a power of two";
        switch (call->coll) {
        case HDRING_ALLREDUCE:
            return HDRING_ALG_RECURSIVE_DOUBLING;
        case HDRING_BCAST:
            return HDRING_ALG_BINOMIAL;
        default:
            return HDRING_ALG_RHD;
        }
    }
    if (call->bytes >= cfg->large_bytes[call->coll][kind]) {
        *why = pof2 ? "auto: large, p power of two" : "auto: large, p not a power of two";
        return HDRING_BCAST == call->coll ? HDRING_ALG_SCATTER_RING : HDRING_ALG_RING;
    }
    *why = pof2 ? "auto: medium, p power of two" : "auto: medium, p not a power of two";
    if (HDRING_BCAST == call->coll) {
        return HDRING_ALG_SCATTER_RHD;
    }
    return pof2 ? HDRING_ALG_RHD : HDRING_ALG_BINARY_BLOCKS;
}

static void choose(const mca_coll_hdring_module_t *m, const mca_coll_hdring_call_t *call,
                   mca_coll_hdring_choice_t *choice)
{
    const int forced = m->config.algorithm[call->coll];
    char forced_why[64];
    const char *why;
    hdring_alg_t alg;

    if (0 != forced) {
        alg = mca_coll_hdring_forced_alg(call->coll, forced);
        snprintf(forced_why, sizeof(forced_why), "forced by coll_hdring_%s_algorithm",
                 mca_coll_hdring_coll_name(call->coll));
        why = forced_why;
    } else {
        alg = auto_choice(&m->config, call, &why);
    }
    choice->alg = alg;
    choice->fallback = false;
    if (!implemented(call->coll, alg)) {
        choice->fallback = true;
        snprintf(choice->reason, sizeof(choice->reason), "%s: %s %s is not implemented yet", why,
                 mca_coll_hdring_coll_name(call->coll), hdring_alg_name(alg));
    } else if (call->ordered && !hdring_alg_keeps_order(alg)) {
        choice->fallback = true;
        snprintf(choice->reason, sizeof(choice->reason),
                 "%s: %s reorders operands and the op is not commutative", why, hdring_alg_name(alg));
    } else {
        snprintf(choice->reason, sizeof(choice->reason), "%s", why);
    }
}

void mca_coll_hdring_decide(const mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                            const mca_coll_hdring_call_t *call, mca_coll_hdring_choice_t *choice)
{
    choose(m, call, choice);
    if (m->config.verbose < 1 || 0 != ompi_comm_rank(comm)) {
        return;
    }
    opal_output(mca_coll_hdring_component.output, "hdring: %s np=%d bytes=%zu alg=%s (%s)",
                mca_coll_hdring_coll_name(call->coll), call->comm_size, call->bytes,
                choice->fallback ? "fallback" : hdring_alg_name(choice->alg), choice->reason);
}
