#pragma once
// One row type for the field tables of the scenario objects (mlforml::paramFields(),
// fabric::backgroundJobFields(), fabric::topologyFields() / placementFields(),
// mosaic::backgroundFields(), mosaic::envelopeFields()): a row names one JSON key with its
// unit, scale, range, bounds, meaning and source and says how the key is read and written. The
// generic readField / writeField / checkField / findField below are the only reader, writer,
// bound check and lookup of those tables; the GUI builds its rows and tooltips from the same
// rows.
#include <cstddef>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/json_reader.h"

namespace tandem {

/// One key of a scenario object whose values live in an `Owner` (Params, Topology, Envelope,
/// ...). A numeric key has `get` and `set` (values in the owner's SI units; JSON value x `scale`
/// = member value), a word key `words`, `getWord` and `setWord`; a key of another shape (a
/// list, a nested object, a string with its own checks) has its own `read` and `write` (a
/// `read` without `write`: the key is read and checked only). Members from `get` on default to
/// empty, so a table row names only the columns it uses.
template <class Owner>
struct Field {
    const char* section;         ///< "" (the object itself) or the nested object holding the key
    const char* key;             ///< JSON key inside the section, unit-suffixed ("compute_ms")
    const char* unit;            ///< unit of the JSON value ("ms", "GB/s", "" for a count)
    const char* unitSuffix;      ///< as messages append it to a number (" ms", " GB/s", "")
    double scale;                ///< member value (SI) = JSON value x scale
    bool integer;                ///< the JSON value (or each list entry) is an integer
    tandem::Range range;         ///< type-level range of the JSON value (JsonReader's check)
    FieldBound atLeast, atMost;  ///< further bounds with reasons, in JSON units (checkField)
    const char* description;     ///< what the value means (tooltip text)
    const char* source;          ///< paper section or calibration the default comes from
    std::function<double(const Owner&)> get{};  ///< numeric keys: the member as a double (SI)
    std::function<void(Owner&, double)> set{};  ///< numeric keys: stores an SI value
    /// Other shapes: reads the key from the section's reader (absent -> unchanged), errors at
    /// the key's path.
    std::function<void(JsonReader&, const Field&, Owner&)> read{};
    /// Other shapes: writes the key into the section's object (or nothing).
    std::function<void(const Field&, const Owner&, nlohmann::ordered_json&)> write{};
    /// false: a numeric or word key is written only when it differs from Owner{}'s value (a key
    /// added after scenarios were saved: they keep their bytes).
    bool writeWhenDefault = true;
    std::vector<std::string> words{};                           ///< word keys: accepted, menu order
    std::function<std::string(const Owner&)> getWord{};         ///< word keys: the member's word
    std::function<void(Owner&, const std::string&)> setWord{};  ///< word keys: stores a word read
    std::size_t maxItems = 0;    ///< list keys: most entries; 0 for any other key
    bool leafSpineOnly = false;  ///< topology keys: only a leaf_spine fabric uses the key
    /// true: an absent numeric or word key is not looked at (nor offered as a "did you mean"
    /// hint by JsonReader::finish); false: it is read as its current value.
    bool onlyWhenPresent = false;
};

/// "key", or "section.key" for a key of a nested object.
template <class Owner>
std::string fieldPath(const Field<Owner>& f) {
    return *f.section ? std::string(f.section) + "." + f.key : std::string(f.key);
}

/// Reports `value` (JSON units) of key `f` beyond f.atLeast or f.atMost at the key's path in
/// r.diagnostics(), naming the key, the value, the limit (with f.unitSuffix) and the bound's
/// reason: "must be at least 0.001 ms (got 0): <why>" (requireAtLeast / requireAtMost). An
/// atLeast bound with unlessZero lets 0 pass. Nothing for a key without bounds.
template <class Owner>
void checkField(JsonReader& r, const Field<Owner>& f, double value) {
    if (f.atLeast.why && !(f.atLeast.unlessZero && value == 0))
        requireAtLeast(r, f.key, value, f.atLeast.limit, f.unitSuffix, f.atLeast.why);
    if (f.atMost.why) requireAtMost(r, f.key, value, f.atMost.limit, f.unitSuffix, f.atMost.why);
}

/// Reads key `f` from `r` (the reader of f's section) into `o`. A key with its own `read` by
/// it; a word key as one of f.words (JsonReader::string); a numeric key as a number (an integer
/// when f.integer) in f.range, then checkField, stored as value x f.scale. An absent key leaves
/// its member as it is (a numeric one rewritten as get / scale x scale unless
/// onlyWhenPresent); a value of the wrong type or out of range is reported and not stored, one
/// beyond a bound is reported and stored.
template <class Owner>
void readField(JsonReader& r, const Field<Owner>& f, Owner& o) {
    if (f.read) {
        f.read(r, f, o);
        return;
    }
    if (f.onlyWhenPresent && !r.has(f.key)) return;
    if (f.getWord) {
        f.setWord(o, r.string(f.key, f.getWord(o), f.words));
        return;
    }
    const double def = f.get(o) / f.scale;
    const double v =
        f.integer ? static_cast<double>(r.integer(f.key, static_cast<long long>(def), f.range))
                  : r.number(f.key, def, f.range);
    checkField(r, f, v);
    f.set(o, v * f.scale);
}

/// Owner{}, built once: what a key with writeWhenDefault false is compared with. Not inlined,
/// so that its one-time construction stays out of every writer.
template <class Owner>
[[gnu::noinline]] const Owner& defaultOwner() {
    static const Owner d;
    return d;
}

/// Writes key `f` of `o` into `j` (the object of f's section): by its own `write` when it has
/// one (nothing for a read-only key), a word key as its word, a numeric key as get / scale (an
/// integer when f.integer); with writeWhenDefault false, nothing when the value equals Owner{}'s.
template <class Owner>
void writeField(const Field<Owner>& f, const Owner& o, nlohmann::ordered_json& j) {
    if (f.write) {
        f.write(f, o, j);
        return;
    }
    if (f.read) return;  // read and checked only
    if (f.getWord) {
        if (f.writeWhenDefault || f.getWord(o) != f.getWord(defaultOwner<Owner>()))
            j[f.key] = f.getWord(o);
        return;
    }
    if (!f.writeWhenDefault && f.get(o) == f.get(defaultOwner<Owner>())) return;
    if (f.integer)
        j[f.key] = static_cast<long long>(f.get(o) / f.scale);
    else
        j[f.key] = f.get(o) / f.scale;
}

/// Reads the set of integers at key `f` into `list`: at least one and at most f.maxItems
/// entries, each an integer in f.range, none repeated ("duplicate value X" at key[i]); absent:
/// `list` kept. A list key's own `read` calls it with its member.
template <class Owner>
void readIntegerSet(JsonReader& r, const Field<Owner>& f, std::vector<int>& list) {
    if (!r.arrayWithin(f.key, f.maxItems)) return;
    const auto v = r.integers(f.key, std::vector<long long>(list.begin(), list.end()), f.range, 1);
    list.assign(v.begin(), v.end());
    r.requireDistinct(f.key, list);
}

/// Reads every key of `fields` from `r` into `o`, in table order. The keys of a nested object
/// (rows with a `section`, consecutive in the table) are read from r.object(section); after
/// them `sectionDone(sub, section)` runs (the section's cross-key checks, may be empty) and
/// sub.finish() reports its unknown keys. r.finish() is left to the caller.
template <class Owner>
void readFields(JsonReader& r, const std::vector<Field<Owner>>& fields, Owner& o,
                const std::function<void(JsonReader&, const char*)>& sectionDone = {}) {
    for (std::size_t i = 0; i < fields.size();) {
        if (!*fields[i].section) {
            readField(r, fields[i++], o);
            continue;
        }
        const char* section = fields[i].section;
        JsonReader sub = r.object(section);
        for (; i < fields.size() && std::strcmp(section, fields[i].section) == 0; ++i)
            if (sub.isObject()) readField(sub, fields[i], o);
        if (!sub.isObject()) continue;
        if (sectionDone) sectionDone(sub, section);
        sub.finish();
    }
}

/// Every key of `fields` (writeField), in table order, a section's keys in its nested object.
template <class Owner>
nlohmann::ordered_json writeFields(const std::vector<Field<Owner>>& fields, const Owner& o) {
    nlohmann::ordered_json j;
    for (const Field<Owner>& f : fields) writeField(f, o, *f.section ? j[f.section] : j);
    return j;
}

/// The row of `path` in `fields` ("key", or "section.key" for a key of a nested object);
/// nullptr when there is none.
template <class Owner>
const Field<Owner>* findField(const std::vector<Field<Owner>>& fields, const std::string& path) {
    for (const Field<Owner>& f : fields)
        if (fieldPath(f) == path) return &f;
    return nullptr;
}

/// The row of `path` in `fields` (findField). Throws std::invalid_argument naming `path` and
/// `where` (the object's JSON path, e.g. "ml_for_ml.topology") when the table has no such key:
/// a wrong key in the caller's code, not in a user's file.
template <class Owner>
const Field<Owner>& field(const std::vector<Field<Owner>>& fields, const std::string& path,
                          const char* where) {
    if (const Field<Owner>* f = findField(fields, path)) return *f;
    throw std::invalid_argument("no key \"" + path + "\" in the field table of " + where);
}

/// The row of key `key` whose value is a nested object held in member `member` of `Owner`: read
/// by `read` over r.object(key) (absent: an empty object, so `member` keeps its values; not an
/// object: JsonReader::object's error) and written by `write`; with `writeWhenDefault` false,
/// not written while the member equals Owner{}'s (a key added after scenarios were saved: they
/// keep their bytes).
template <class Owner, class Inner>
Field<Owner> objectField(const char* section, const char* key, const char* description,
                         const char* source, Inner Owner::*member, void (*read)(JsonReader, Inner&),
                         nlohmann::ordered_json (*write)(const Inner&),
                         bool writeWhenDefault = true) {
    Field<Owner> f{section, key, "", "", 1, false, Range{}, {}, {}, description, source};
    f.read = [member, read](JsonReader& r, const Field<Owner>& row, Owner& o) {
        read(r.object(row.key), o.*member);
    };
    f.write = [member, write](const Field<Owner>& row, const Owner& o, nlohmann::ordered_json& j) {
        if (row.writeWhenDefault || !(o.*member == defaultOwner<Owner>().*member))
            j[row.key] = write(o.*member);
    };
    f.writeWhenDefault = writeWhenDefault;
    return f;
}

/// The row `f` of an object held in member `member` of `Owner` (a background job inside the
/// ML-for-ML parameters), in section `section` of Owner's table: the same key, unit, range,
/// bounds and meaning, its get / set / getWord / setWord and its own read / write reaching
/// through `member`, so readField / writeField treat it as f. `f` must outlive the row (a row
/// of a static table).
template <class Owner, class Inner>
Field<Owner> memberField(const Field<Inner>& f, Inner Owner::*member, const char* section) {
    Field<Owner> row{section, f.key,     f.unit,   f.unitSuffix,  f.scale, f.integer,
                     f.range, f.atLeast, f.atMost, f.description, f.source};
    if (f.get) row.get = [&f, member](const Owner& o) { return f.get(o.*member); };
    if (f.set) row.set = [&f, member](Owner& o, double v) { f.set(o.*member, v); };
    if (f.getWord) row.getWord = [&f, member](const Owner& o) { return f.getWord(o.*member); };
    if (f.setWord)
        row.setWord = [&f, member](Owner& o, const std::string& w) { f.setWord(o.*member, w); };
    if (f.read)
        row.read = [&f, member](JsonReader& r, const Field<Owner>&, Owner& o) {
            f.read(r, f, o.*member);
        };
    if (f.write)
        row.write = [&f, member](const Field<Owner>&, const Owner& o, nlohmann::ordered_json& j) {
            f.write(f, o.*member, j);
        };
    row.writeWhenDefault = f.writeWhenDefault;
    row.words = f.words;
    row.maxItems = f.maxItems;
    row.leafSpineOnly = f.leafSpineOnly;
    row.onlyWhenPresent = f.onlyWhenPresent;
    return row;
}

}  // namespace tandem
