// The layout as text (mosaic/layout_form.h): layoutString and parseLayout read back the same
// plan, every key of the table is read, and an unknown key's message lists the whole table.
#include <QtTest>
#include <iterator>
#include <string>

#include "mosaic/layout_form.h"
#include "mosaic/plan.h"
#include "mosaic/report.h"
#include "test_main.h"

using namespace tandem::mosaic;

namespace {

using C = Checkpointing;

/// Every member of the plan, compared through its JSON form (report.h writes every member).
bool samePlan(const Plan& a, const Plan& b) { return planToJsonObject(a) == planToJsonObject(b); }

/// Plans with each key away from its default somewhere: {tp, ep, pp, cp, dp, mbs, ckpt, vp, etp,
/// fsdp, distopt, sp, pp_first, pp_last}.
const Plan kPlans[] = {
    {1, 1, 1, 1, 1, 1, C::None, 1, 1, false, true, true, 0, 0},
    {2, 8, 4, 1, 16, 2, C::Selective, 1, 1, false, true, true, 0, 0},
    {1, 64, 8, 2, 4, 1, C::Full, 4, 2, false, true, true, 0, 0},
    {4, 1, 1, 1, 32, 8, C::CoreAttention, 1, 1, true, false, false, 0, 0},
    {8, 8, 16, 4, 2, 1, C::SuperSelective, 1, 1, false, true, true, 3, 5},
    {1, 1, 2, 1, 1, 1, C::None, 3, 1, true, true, true, 1, 0},
};

}  // namespace

class TestMosaicLayoutForm : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data() {
        QTest::addColumn<int>("which");
        for (int i = 0; i < int(std::size(kPlans)); ++i)
            QTest::newRow(std::to_string(i).c_str()) << i;
    }

    void roundTrip() {
        QFETCH(int, which);
        const Plan& p = kPlans[which];
        const std::string text = layoutString(p);
        Plan back;
        std::string error;
        QVERIFY2(parseLayout(text, back, error), error.c_str());
        QVERIFY2(samePlan(back, p), text.c_str());
        QCOMPARE(layoutString(back), text);
    }

    void writesDefaultsShort() {
        const Plan p = {1, 8, 8, 1, 32, 4, C::None, 1, 1, false, true, true, 0, 0};
        QCOMPARE(QString::fromStdString(layoutString(p)),
                 QStringLiteral("tp=1,pp=8,cp=1,ep=8,dp=32,mbs=4,ckpt=none"));
        Plan q = p;
        q.vp = 2;
        q.distributedOptimizer = false;
        q.lastStageLayers = 3;
        QCOMPARE(QString::fromStdString(layoutString(q)),
                 QStringLiteral("tp=1,pp=8,cp=1,ep=8,dp=32,mbs=4,ckpt=none,vp=2,distopt=0,"
                                "pp_last=3"));
    }

    void everyTableKeyIsRead() {
        for (const LayoutKey& k : layoutKeys()) {
            const std::string value = k.kind == LayoutValue::Checkpointing ? "full"
                                      : k.kind == LayoutValue::Flag        ? "0"
                                                                           : "3";
            Plan p;
            std::string error;
            QVERIFY2(parseLayout(std::string(k.key) + "=" + value, p, error), error.c_str());
            switch (k.kind) {
                case LayoutValue::Count:
                case LayoutValue::CountOrZero:
                    QCOMPARE(p.*k.count, 3);
                    break;
                case LayoutValue::Flag:
                    QVERIFY(!(p.*k.flag));
                    break;
                case LayoutValue::Checkpointing:
                    QVERIFY(p.*k.mode == Checkpointing::Full);
                    break;
            }
            QVERIFY(std::string(k.description).size() > 0);
        }
    }

    void unknownKeyListsEveryKey() {
        Plan p;
        std::string error;
        QVERIFY(!parseLayout("tp=2,zz=4", p, error));
        std::string known;
        for (const LayoutKey& k : layoutKeys())
            known += (known.empty() ? "" : ", ") + std::string(k.key);
        QCOMPARE(QString::fromStdString(error),
                 QString::fromStdString("unknown layout key \"zz\" (known: " + known + ")"));
        QCOMPARE(QString::fromStdString(error),
                 QStringLiteral("unknown layout key \"zz\" (known: tp, pp, vp, cp, ep, etp, dp, "
                                "mbs, fsdp, distopt, sp, pp_first, pp_last, ckpt)"));
    }

    void messages_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("not key=value") << "tp=2,pp"
                                       << "layout entry \"pp\" must be key=value";
        QTest::newRow("twice") << "tp=2,tp=4"
                               << "layout key \"tp\" given twice";
        QTest::newRow("not an integer") << "pp=x"
                                        << "layout key pp must be an integer (got \"x\")";
        QTest::newRow("count") << "mbs=0"
                               << "layout key mbs must be >= 1 (got 0)";
        QTest::newRow("count or zero") << "pp_first=-1"
                                       << "layout key pp_first must be >= 0 (got -1)";
        QTest::newRow("flag") << "fsdp=2"
                              << "layout key fsdp must be 0 or 1 (got 2)";
        QTest::newRow("ckpt")
            << "ckpt=some"
            << "ckpt must be none, core-attn, selective, super-selective or full (got \"some\")";
        QTest::newRow("positional count") << "1,8,4"
                                          << "layout must be tp,ep,pp,cp,dp,mbs[,ckpt] "
                                             "(got \"1,8,4\")";
        QTest::newRow("positional field")
            << "1,8,0,1,16,4"
            << "layout field 3 must be a positive integer (got \"0\")";
        QTest::newRow("positional ckpt") << "1,8,4,1,16,4,some"
                                         << "checkpointing must be none, core-attn, selective, "
                                            "super-selective or full (got \"some\")";
    }

    void messages() {
        QFETCH(QString, text);
        QFETCH(QString, error);
        Plan p;
        std::string got;
        QVERIFY(!parseLayout(text.toStdString(), p, got));
        QCOMPARE(QString::fromStdString(got), error);
    }

    void positionalOrder() {
        Plan p;
        std::string error;
        QVERIFY2(parseLayout("2,8,4,1,16,4,selective", p, error), error.c_str());
        QVERIFY(samePlan(p, {2, 8, 4, 1, 16, 4, C::Selective, 1, 1, false, true, true, 0, 0}));
    }

    /// Whether the text names a recomputation mode: the ckpt key (named form) or the seventh
    /// field (positional form); without one the plan's ckpt is none and `plan --layout` chooses.
    void ckptGiven_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("given");
        QTest::newRow("named without") << "tp=2,pp=4,mbs=1" << false;
        QTest::newRow("named with none") << "tp=2,pp=4,mbs=1,ckpt=none" << true;
        QTest::newRow("named with full") << "ckpt=full,tp=2" << true;
        QTest::newRow("positional without") << "2,8,4,1,16,4" << false;
        QTest::newRow("positional with") << "2,8,4,1,16,4,none" << true;
    }
    void ckptGiven() {
        QFETCH(QString, text);
        QFETCH(bool, given);
        Plan p;
        std::string error;
        bool got = !given;
        QVERIFY2(parseLayout(text.toStdString(), p, error, &got), error.c_str());
        QCOMPARE(got, given);
        if (!given) QVERIFY(p.ckpt == C::None);
        // A text that fails leaves no stale answer.
        got = true;
        QVERIFY(!parseLayout("tp=x", p, error, &got));
        QVERIFY(!got);
    }
};

TANDEM_TEST_APPLESS_MAIN(TestMosaicLayoutForm)
#include "tst_mosaic_layout_form.moc"
