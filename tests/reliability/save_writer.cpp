// Helper of tst_atomic_save: saves a large scenario over and over through the same atomic-save
// code the applications use, until it is killed.
//   save_writer cli TARGET   -> fileio::writeFileAtomic (tandem-cli, fileio/save_file.cpp)
//   save_writer gui TARGET   -> ui::ScenarioDocument::save (the GUI; only when built with it)
// Before the loop it writes the two alternating contents to TARGET.a and TARGET.b (plain
// writes) and prints "ready" on stdout, so the test knows what a complete file looks like.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <cstdio>
#include <string>

#include "save_file.h"
#include "scenario/scenario.h"
#ifdef TANDEM_SAVE_WRITER_GUI
#include "ui/shell/scenario_document.h"
#endif

namespace {

/// A valid scenario of a few MB (a long description), so that a save takes long enough for a
/// kill to land in the middle of it. `tag` makes the two versions differ everywhere.
tandem::Scenario bigScenario(char tag) {
    tandem::Scenario s = tandem::defaultScenario();
    s.name = std::string("atomic save test ") + tag;
    s.description.assign(4u << 20, tag);
    s.mlForMl->backgroundJobs = tag == 'a' ? std::vector<int>{4, 8} : std::vector<int>{12, 16};
    return s;
}

bool writePlain(const QString& path, const std::string& data) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) &&
           f.write(data.data(), qint64(data.size())) == qint64(data.size());
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() != 3 || (args[1] != "cli" && args[1] != "gui")) {
        std::fprintf(stderr, "usage: save_writer cli|gui TARGET\n");
        return 2;
    }
    const QString target = args[2];
    const tandem::Scenario versions[2] = {bigScenario('a'), bigScenario('b')};
    const std::string texts[2] = {tandem::scenarioToJson(versions[0]),
                                  tandem::scenarioToJson(versions[1])};
    if (!writePlain(target + ".a", texts[0]) || !writePlain(target + ".b", texts[1])) return 1;
#ifdef TANDEM_SAVE_WRITER_GUI
    tandem::ui::ScenarioDocument doc;
#else
    if (args[1] == "gui") {
        std::fprintf(stderr, "save_writer: built without the GUI\n");
        return 2;
    }
#endif
    std::printf("ready\n");
    std::fflush(stdout);
    // Runs until the test kills it (SIGKILL); bounded so an orphaned helper stops by itself.
    QElapsedTimer clock;
    clock.start();
    for (long i = 0; i < 100000 && clock.elapsed() < 60000; ++i) {
        const int v = int(i % 2);
        QString error;
        bool ok = false;
        if (args[1] == "cli") {
            ok = tandem::fileio::writeFileAtomic(target, texts[v], &error);
        } else {
#ifdef TANDEM_SAVE_WRITER_GUI
            doc.reset(versions[v]);
            ok = doc.save(target, &error);
#endif
        }
        if (!ok) {
            std::fprintf(stderr, "save failed: %s\n", error.toUtf8().constData());
            return 1;
        }
        std::printf("saved\n");  // lets the test kill after a known number of saves
        std::fflush(stdout);
    }
    return 0;
}
