// main() of every test executable: runs the suite its first argument names (test_main.h).
#include "test_main.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace tandem::test {
namespace {

struct Suite {
    SuiteMain main = nullptr;
    std::string file;
};

std::map<std::string, Suite>& registry() {
    static std::map<std::string, Suite> suites;
    return suites;
}

// Two suites registered under one name: reported by main() before anything runs.
std::string& clash() {
    static std::string text;
    return text;
}

std::string stem(const char* file) {
    std::string s(file);
    const auto slash = s.find_last_of("/\\");
    if (slash != std::string::npos) s.erase(0, slash + 1);
    const auto dot = s.find('.');
    if (dot != std::string::npos) s.erase(dot);
    return s;
}

}  // namespace

bool registerSuite(const char* file, SuiteMain main) {
    const std::string name = stem(file);
    auto [it, inserted] = registry().emplace(name, Suite{main, file});
    if (!inserted) clash() += name + " is registered by " + it->second.file + " and " + file + "\n";
    return inserted;
}

}  // namespace tandem::test

int main(int argc, char** argv) {
    using tandem::test::registry;
    if (!tandem::test::clash().empty()) {
        std::fprintf(stderr, "test suites with one name:\n%s", tandem::test::clash().c_str());
        return 2;
    }
    // An executable that holds one suite runs it without being told which.
    const bool named = argc >= 2 && registry().count(argv[1]) == 1;
    if (!named && !(registry().size() == 1 && (argc < 2 || argv[1][0] == '-'))) {
        std::fprintf(stderr, "usage: %s SUITE [QtTest options]\nsuites:\n", argv[0]);
        for (const auto& [name, suite] : registry()) std::fprintf(stderr, "  %s\n", name.c_str());
        return 2;
    }
    const auto& [name, suite] = named ? *registry().find(argv[1]) : *registry().begin();
    // argv[0] becomes the suite's name, so that the application name (and with it the test-mode
    // QStandardPaths and QSettings locations) is the suite's, as with one executable per suite.
    std::vector<char*> args;
    std::string program = name;
    args.push_back(program.data());
    for (int i = named ? 2 : 1; i < argc; ++i) args.push_back(argv[i]);
    args.push_back(nullptr);
    return suite.main(static_cast<int>(args.size()) - 1, args.data());
}
