// One entry point for the QtTest suites. Several suites share one executable (a test group,
// tests/CMakeLists.txt); each registers itself under its file name (tst_foo.cpp -> "tst_foo") and
// the group's main() (test_main.cpp) runs the suite named by its first argument:
//
//   tandem_tests_mosaic tst_mosaic_law [QtTest options...]
//
// Use these in place of QTEST_MAIN / QTEST_GUILESS_MAIN / QTEST_APPLESS_MAIN; each creates the
// same application object as the QtTest macro it replaces.
#pragma once

#include <QtTest>

namespace tandem::test {

/// Runs one suite: argc/argv as QTest::qExec takes them (argv[0] is the suite name).
using SuiteMain = int (*)(int argc, char** argv);

/// Registers `main` under the stem of `file` (a __FILE__). Two suites with one name is a
/// programming error: test_main.cpp refuses to run and names both.
bool registerSuite(const char* file, SuiteMain main);

}  // namespace tandem::test

#define TANDEM_TEST_SUITE_IMPL(TestObject, setup)                          \
    namespace {                                                            \
    int tandemSuiteMain(int argc, char** argv) {                           \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>(); \
        setup TestObject tc;                                               \
        QTEST_SET_MAIN_SOURCE_PATH                                         \
        return QTest::qExec(&tc, argc, argv);                              \
    }                                                                      \
    [[maybe_unused]] const bool tandemSuiteRegistered =                    \
        ::tandem::test::registerSuite(__FILE__, &tandemSuiteMain);         \
    }

/// QTEST_MAIN: a QApplication with widgets, else a QGuiApplication, else a QCoreApplication.
#define TANDEM_TEST_MAIN(TestObject) TANDEM_TEST_SUITE_IMPL(TestObject, QTEST_MAIN_SETUP())
/// QTEST_GUILESS_MAIN: a QCoreApplication.
#define TANDEM_TEST_GUILESS_MAIN(TestObject) \
    TANDEM_TEST_SUITE_IMPL(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
/// QTEST_APPLESS_MAIN: no application object.
#define TANDEM_TEST_APPLESS_MAIN(TestObject) TANDEM_TEST_SUITE_IMPL(TestObject, )
