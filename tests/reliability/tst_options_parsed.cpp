// No documented option goes unparsed: every key the canonical scenario writes
// (both sections, the hardware object and the scaling law included) is changed one at a time to
// another valid value; the scenario must either reject the value with a message at that key's
// path or load it and save the new value back. A key that loads silently but saves the old
// value is read by nobody.
#include <QtTest>
#include <cmath>

#include "mosaic/hardware.h"
#include "scenario/scenario.h"
#include "test_main.h"

using namespace tandem;
using json = nlohmann::json;

namespace {

/// Another value of the same type: integers + 1, other numbers x 1.25 (0 -> 0.5), booleans
/// flipped. Returns false for values this test does not perturb (strings, objects).
bool perturb(const json& v, json& out) {
    if (v.is_number_integer()) {
        out = v.get<long long>() + 1;
        return true;
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        out = d == 0 ? 0.5 : d * 1.25;
        return true;
    }
    if (v.is_boolean()) {
        out = !v.get<bool>();
        return true;
    }
    return false;
}

bool sameValue(const json& a, const json& b) {
    if (a.is_number() && b.is_number()) {
        const double x = a.get<double>(), y = b.get<double>();
        return std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
    }
    return a == b;
}

/// JSON pointer -> the "$.a.b[2]" path style of the diagnostics.
std::string dollarPath(const json::json_pointer& p) {
    std::string s = "$";
    json::json_pointer walk = p;
    std::vector<std::string> parts;
    while (!walk.empty()) {
        parts.insert(parts.begin(), walk.back());
        walk.pop_back();
    }
    for (const auto& part : parts) {
        const bool index =
            !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
        s += index ? "[" + part + "]" : "." + part;
    }
    return s;
}

void leaves(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) leaves(it.value(), at / it.key(), out);
    } else if (j.is_array()) {
        if (!j.empty()) leaves(j[0], at / 0, out);  // the first element stands for the array
    } else {
        out.push_back(at);
    }
}

}  // namespace

class TstOptionsParsed : public QObject {
    Q_OBJECT
private slots:
    void everyWrittenKeyIsRead() {
        Scenario s = defaultScenario();
        s.mosaic->hardware = mosaic::builtinHardware("h100");
        s.mosaic->hardware.name = "custom";  // written as a full object, not as a name
        const json base = json::parse(scenarioToJson(s));
        std::vector<json::json_pointer> keys;
        leaves(base, json::json_pointer(), keys);
        int changed = 0, rejected = 0;
        QStringList ignored;
        for (const auto& ptr : keys) {
            if (ptr.to_string() == "/tandem_scenario_version") continue;  // only one version exists
            json v;
            if (!perturb(base[ptr], v)) continue;
            json doc = base;
            doc[ptr] = v;
            Diagnostics d;
            const auto parsed = parseScenario(doc.dump(), d);
            if (!parsed) {
                // A rejection must name this key (or, for cross-field rules, still say why).
                QVERIFY2(!d.items().empty(), ptr.to_string().c_str());
                ++rejected;
                continue;
            }
            const json back = json::parse(scenarioToJson(*parsed));
            if (!back.contains(ptr) || !sameValue(back[ptr], v))
                ignored << QString::fromStdString(dollarPath(ptr));
            else
                ++changed;
        }
        qInfo("%d keys changed and read back, %d values rejected with a message", changed,
              rejected);
        QVERIFY2(ignored.isEmpty(), qPrintable("accepted but not read: " + ignored.join(", ")));
        // Enough keys were actually exercised for the check to mean something.
        QVERIFY2(
            changed >= 80,
            qPrintable(QString("only %1 keys changed (%2 rejected)").arg(changed).arg(rejected)));
    }
};

TANDEM_TEST_APPLESS_MAIN(TstOptionsParsed)
#include "tst_options_parsed.moc"
