// A planted violation for the layering test: core/ is free of Qt.
#include <QString>
