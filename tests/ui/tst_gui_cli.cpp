// The `tandem` GUI executable's command line: --help and --version print and exit 0 without any
// display (they aborted with exit 134 before); a bad --page or --preset exits 2 and names what is
// allowed instead of rendering page 0.
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest>
#include <clocale>
#include <string>

#include "test_main.h"
#include "ui/shell/presets.h"

namespace {
struct Run {
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QString out, err;
};
/// Runs `tandem args` with no display at all (DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM unset);
/// `locale`, when not empty, is the child's LC_ALL.
Run runTandem(const QStringList& args, const QString& locale = QString()) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!locale.isEmpty()) env.insert(QStringLiteral("LC_ALL"), locale);
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(TANDEM_GUI), args);
    Run r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = p.exitCode();
    r.status = p.exitStatus();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

/// Runs `tandem args` ("$OUT" stands for a fresh folder) with LC_ALL=`locale`; returns the exit
/// code, stdout and stderr ("$OUT" in place of the folder) and every CSV and JSON file written,
/// name and bytes.
QByteArray transcript(const QStringList& args, const QString& locale) {
    QTemporaryDir dir;
    QStringList a = args;
    a.replaceInStrings(QStringLiteral("$OUT"), dir.path());
    const Run r = runTandem(a, locale);
    QByteArray all = "exit " + QByteArray::number(r.exitCode) + "\n" +
                     QString(r.out + r.err).replace(dir.path(), QStringLiteral("$OUT")).toUtf8();
    const QDir d(dir.path());
    for (const QString& f : d.entryList({QStringLiteral("*.csv"), QStringLiteral("*.json")},
                                        QDir::Files, QDir::Name)) {
        QFile in(d.filePath(f));
        all += "--- " + f.toUtf8() + "\n" +
               (in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray("<unreadable>"));
    }
    return all;
}

/// True when the C library knows `locale`; this process's locale is left as it was.
bool localeInstalled(const char* locale) {
    const std::string before = std::setlocale(LC_ALL, nullptr);
    const bool ok = std::setlocale(LC_ALL, locale) != nullptr;
    std::setlocale(LC_ALL, before.c_str());
    return ok;
}
}  // namespace

class TstGuiCli : public QObject {
    Q_OBJECT
private slots:
    void helpAndVersionNeedNoDisplay_data() {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("expected");
        QTest::newRow("--help") << QStringLiteral("--help") << QStringLiteral("--screenshot");
        QTest::newRow("-h") << QStringLiteral("-h") << QStringLiteral("--export-charts");
        QTest::newRow("--version") << QStringLiteral("--version") << QStringLiteral("Tandem");
    }
    void helpAndVersionNeedNoDisplay() {
        QFETCH(QString, option);
        QFETCH(QString, expected);
        const Run r = runTandem({option});
        QCOMPARE(r.status, QProcess::NormalExit);
        QVERIFY2(r.exitCode == 0,
                 qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.out.contains(expected), qPrintable(r.out));
    }

    /// --help, --help-all and --version into a full disk exit 1 and say why, as tandem-cli does
    /// (they exited 0 with nothing written); their text is exact when the write succeeds.
    void helpAndVersionWriteErrors_data() {
        QTest::addColumn<QString>("option");
        QTest::newRow("--help") << QStringLiteral("--help");
        QTest::newRow("--help-all") << QStringLiteral("--help-all");
        QTest::newRow("--version") << QStringLiteral("--version");
    }
    void helpAndVersionWriteErrors() {
        QFETCH(QString, option);
        if (!QFileInfo::exists(QStringLiteral("/dev/full"))) QSKIP("no /dev/full here");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.setStandardOutputFile(QStringLiteral("/dev/full"));
        p.start(QStringLiteral(TANDEM_GUI), {option});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 1);
        // Qt may add its own warnings (XDG_RUNTIME_DIR): the reason is one line of its own.
        QVERIFY2(err.split(QLatin1Char('\n'))
                     .contains(QStringLiteral(
                         "tandem: cannot write to standard output: No space left on device")),
                 qPrintable(err));
        const Run version = runTandem({QStringLiteral("--version")});
        QCOMPARE(version.out, QStringLiteral("Tandem 0.1.0\n"));
    }

    void badPageIsRefused_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("tab");
        QTest::addColumn<QString>("page");
        QTest::addColumn<QString>("message");
        const QString t0 = QStringLiteral("0"), none;
        QTest::newRow("99") << none << t0 << QStringLiteral("99")
                            << QStringLiteral("--page must be 0..");
        QTest::newRow("-5") << none << t0 << QStringLiteral("-5")
                            << QStringLiteral("--page must be a chart page number >= 0");
        QTest::newRow("text") << none << t0 << QStringLiteral("two")
                              << QStringLiteral("--page must be a chart page number >= 0");
        // Pages that only an import shows would render empty: refused with the reason.
        QTest::newRow("loss fit hidden")
            << none << t0 << QStringLiteral("3")
            << QStringLiteral("page 3 appears after importing a training loss log");
        QTest::newRow("nccl hidden")
            << none << QStringLiteral("1") << QStringLiteral("2")
            << QStringLiteral("page 2 appears after importing an nccl-tests log");
        // Fig. 3 (scenario 2) has no sweep over N: the disabled page is refused with its tooltip.
        QTest::newRow("sweep disabled")
            << QStringLiteral("mlforml-fig3") << t0 << QStringLiteral("2")
            << QStringLiteral("--page 2 is disabled: Disabled: the sweep over N needs");
    }
    void badPageIsRefused() {
        QFETCH(QString, tab);
        QFETCH(QString, page);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        const QString png = tmp.filePath(QStringLiteral("shot.png"));
        QFETCH(QString, preset);
        QStringList args{QStringLiteral("--screenshot"), png, QStringLiteral("--tab"), tab,
                         QStringLiteral("--page"),       page};
        if (!preset.isEmpty()) args << QStringLiteral("--preset") << preset;
        const Run r = runTandem(args);
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(png));  // nothing rendered
    }

    /// A screenshot is written only to a .png name: another suffix is refused before anything
    /// is rendered, so no PNG bytes land in a file named .jpg.
    void screenshotNeedsAPngName() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString jpg = dir.filePath(QStringLiteral("a.jpg"));
        const Run r = runTandem({QStringLiteral("--screenshot"), jpg});
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(jpg) && r.err.contains(QLatin1String("must end in .png")),
                 qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(jpg));
    }

    /// Every preset exported into a place that is not a folder: refused once, with the reason.
    void exportAllIntoADeviceIsRefusedOnce() {
        const Run r = runTandem({QStringLiteral("--export-charts"), QStringLiteral("/dev/null"),
                                 QStringLiteral("--preset"), QStringLiteral("all")});
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count(QLatin1String("/dev/null: is a character device, not a folder")),
                 qsizetype(1));
        QFileInfo null(QStringLiteral("/dev/null"));
        QVERIFY(!null.isFile() && !null.isDir());  // still the device
    }

    /// Issue #25: what the GUI reads and writes is in the C convention whatever the locale. The
    /// headless export with imports (nccl-tests log, config.json, loss log, load trace) and the
    /// default scenario give the same exit code, messages and CSV/JSON bytes under
    /// LC_ALL=de_DE.UTF-8 as under LC_ALL=C (the importers refused "2.5" under de_DE.UTF-8).
    void filesIgnoreLocale_data() {
        QTest::addColumn<QStringList>("args");
        const QString data = QStringLiteral(TANDEM_TEST_DATA "/");
        QTest::newRow("mosaic export with nccl-tests and config.json") << QStringList{
            "--preset",        "mosaic-fig1",
            "--import",        data + "models/Mixtral-8x7B-v0.1.config.json",
            "--import",        data + "nccl/H100-all_reduce-2x8-awsome-distributed-training.txt",
            "--export-charts", "$OUT"};
        QTest::newRow("ml-for-ml export with loss log and trace")
            << QStringList{"--preset",        "mlforml-fig2a",
                           "--import",        data + "losslogs/llmc-gpt2-124M-10B-8xH100.txt",
                           "--import",        data + "../cli/data/rate-trace.csv",
                           "--export-charts", "$OUT"};
        QTest::newRow("default scenario") << QStringList{"--write-default-scenario", "$OUT/d.json"};
    }
    void filesIgnoreLocale() {
        QFETCH(QStringList, args);
        if (!localeInstalled("de_DE.UTF-8"))
            QSKIP(
                "the de_DE.UTF-8 locale is not installed here (localedef -i de_DE -f UTF-8 "
                "de_DE.UTF-8; scripts/ci-locale.sh does it)");
        const QByteArray c = transcript(args, QStringLiteral("C"));
        QVERIFY2(c.startsWith("exit 0\n") && c.contains("--- "), c.left(2000).constData());
        const QByteArray de = transcript(args, QStringLiteral("de_DE.UTF-8"));
        if (de == c) return;
        const QList<QByteArray> a = c.split('\n'), b = de.split('\n');
        qsizetype i = 0;
        while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
        QFAIL(qPrintable(QStringLiteral("line %1: C says\n  %2\nde_DE.UTF-8 says\n  %3")
                             .arg(i + 1)
                             .arg(QString::fromUtf8(i < a.size() ? a[i].left(300) : "<end>"),
                                  QString::fromUtf8(i < b.size() ? b[i].left(300) : "<end>"))));
    }

    void unknownPresetListsTheValidIds() {
        const Run r = runTandem({QStringLiteral("--preset"), QStringLiteral("nope"),
                                 QStringLiteral("--screenshot"), QStringLiteral("x.png")});
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("unknown preset 'nope'; valid ids:")),
                 qPrintable(r.err));
        const QList<tandem::ui::Preset> presets = tandem::ui::allPresets();
        QVERIFY(!presets.isEmpty());
        for (const tandem::ui::Preset& p : presets)
            QVERIFY2(r.err.contains(p.id), qPrintable(p.id));
    }
};

TANDEM_TEST_GUILESS_MAIN(TstGuiCli)
#include "tst_gui_cli.moc"
