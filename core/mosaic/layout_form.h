#pragma once
// The layout as text: the positional form "tp,ep,pp,cp,dp,mbs[,ckpt]" and the named form
// "tp=2,pp=8,...,ckpt=selective" that `tandem-cli plan --layout` reads and the reports write.
// One table of keys (layoutKeys) drives reading, the "known keys" message and writing.
#include <string>
#include <vector>

#include "mosaic/perf_model.h"

namespace tandem::mosaic {

/// What a layout key's value is and which values it accepts.
enum class LayoutValue {
    Count,          ///< an integer >= 1
    CountOrZero,    ///< an integer >= 0 (0 = not set, e.g. the even pipeline split)
    Flag,           ///< 0 or 1
    Checkpointing,  ///< a checkpointing name (checkpointingName)
};

/// One key of the named layout form. Exactly one member pointer is set, by `kind`: `count` for
/// Count and CountOrZero, `flag` for Flag, `mode` for Checkpointing.
struct LayoutKey {
    const char* key;
    LayoutValue kind;
    int Plan::*count = nullptr;
    bool Plan::*flag = nullptr;
    Checkpointing Plan::*mode = nullptr;
    /// layoutString writes the key always (true) or only where it differs from Plan{}.
    bool alwaysWritten = false;
    const char* description = "";
};

/// Every key of the named form, in the order the "known" list of an unknown-key error names them
/// (tp, pp, vp, cp, ep, etp, dp, mbs, fsdp, distopt, sp, pp_first, pp_last, ckpt).
const std::vector<LayoutKey>& layoutKeys();

/// Parses the positional form "tp,ep,pp,cp,dp,mbs[,ckpt]" (ckpt default none) or the named
/// form "tp=2,pp=8,vp=4,cp=1,ep=64,etp=1,mbs=1,fsdp=0,distopt=1,sp=1,pp_first=0,pp_last=0,
/// ckpt=selective" (any subset of layoutKeys(), defaults those of Plan{}: 1 / off / none /
/// distopt 1 / sp 1 / pp_first and pp_last 0 = even split; without dp= the plan's dp is 0 and
/// the caller sets it to N_dev / (TP CP PP)). False + `error` naming the field or key on
/// failure (not key=value, a key given twice, an unknown key with the known ones, a value out of
/// its kind's range). `ckptGiven` (optional) is set to whether the text names a recomputation
/// mode (the ckpt key, or the positional form's seventh field); without one the plan's ckpt is
/// none, and `plan --layout` then costs the least recomputation that fits
/// (chooseLeastRecomputation, plan.h).
bool parseLayout(const std::string& text, Plan& plan, std::string& error,
                 bool* ckptGiven = nullptr);

/// The named form of `p` that parseLayout reads back to the same plan: the keys written always
/// first ("tp=1,pp=8,cp=1,ep=8,dp=32,mbs=4,ckpt=none"), then vp, etp, fsdp, distopt, sp,
/// pp_first and pp_last only where they differ from their defaults; flags as 0 / 1.
std::string layoutString(const Plan& p);

}  // namespace tandem::mosaic
