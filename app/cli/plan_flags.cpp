#include "plan_flags.h"

#include <QFile>
#include <QFileInfo>
#include <cstdio>

#include "mosaic/layout_form.h"
#include "mosaic/model_file.h"
#include "output.h"

namespace cli {

namespace m = tandem::mosaic;

QString layoutSyntaxHelp() {
    return QStringLiteral(
        "named (tp=2,pp=8,vp=4,cp=1,ep=64,etp=1,mbs=1,fsdp=0,"
        "distopt=1,sp=1,pp_first=0,pp_last=0,ckpt=selective; any subset, dp = N / (TP CP "
        "PP) unless given; pp_first / pp_last: layers on the first / last stage, 0 "
        "= even; ckpt none, core-attn, selective, super-selective or full) or "
        "positional (tp,ep,pp,cp,dp,mbs[,ckpt])");
}

QString layoutFlagHelp() {
    return QStringLiteral("Evaluate one layout, ") + layoutSyntaxHelp() +
           QStringLiteral(
               ". Without ckpt the least recomputation "
               "that fits is costed (none, selective, super-selective, full) and named; a layout "
               "that does not fit names the setting that would.");
}

QString precisionFlagHelp() {
    return QStringLiteral(
        "GEMM precision: bf16, fp8, mxfp8, nvfp4 (attention, LM head and norms stay BF16).");
}

bool positiveInt(const QString& text, const char* name, int* out, int max) {
    bool ok = false;
    const qlonglong v = text.toLongLong(&ok);  // 2^31 and beyond: "at most", not "not an integer"
    if (!ok || v <= 0) {
        printError(QStringLiteral("--%1 must be a positive integer (got '%2')")
                       .arg(QString::fromUtf8(name), text));
        return false;
    }
    if (v > max) {
        printError(
            QStringLiteral("--%1 must be at most %2 (got %3), the largest an envelope accepts")
                .arg(QString::fromUtf8(name))
                .arg(max)
                .arg(v));
        return false;
    }
    *out = static_cast<int>(v);
    return true;
}

bool readModelFile(const QString& path, m::PlanRequest& req) {
    QFile f(path);
    const QFileInfo info(path);
    if (info.exists() && !info.isFile()) {
        printError(QStringLiteral("%1: %2").arg(
            path, info.isDir() ? QStringLiteral("is a folder, not a model file")
                               : QStringLiteral("is not a regular file")));
        return false;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        printError(QStringLiteral("%1: cannot open file for reading: %2")
                       .arg(path, f.errorString().toLower()));
        return false;
    }
    tandem::Diagnostics diag(path.toStdString());
    m::parseModelFile(f.readAll().toStdString(), req, diag);
    if (diag.ok()) return true;
    for (const auto& issue : diag.items()) printError(QString::fromStdString(issue.str()));
    return false;
}

bool readLayoutFlag(const QString& text, m::Plan& plan, bool* ckptGiven) {
    std::string error;
    if (m::parseLayout(text.toStdString(), plan, error, ckptGiven)) return true;
    printError(QStringLiteral("--layout: %1").arg(QString::fromStdString(error)));
    return false;
}

bool readPrecisionFlag(const QString& text, m::Precision& out) {
    if (m::parsePrecision(text.toStdString(), out)) return true;
    printError(
        QStringLiteral("--precision must be bf16, fp8, mxfp8 or nvfp4 (got '%1')").arg(text));
    return false;
}

}  // namespace cli
