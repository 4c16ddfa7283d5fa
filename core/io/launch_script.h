#pragma once
// A launch script (a shell file that starts a training run) as bash splits it into commands and
// argument words: comments, continuations, quoting, arrays and variables the file assigns,
// command boundaries. No knowledge of what the words mean: core/mosaic/megatron_args.* reads
// the Megatron-LM flags among them.
#include <string>
#include <vector>

namespace tandem::io {

/// One command of a script as bash runs it: its words after expansion (assignments left out),
/// each with the line it is on. `array`: the elements of an array the script assigns but never
/// expands, kept where it is assigned.
struct ScriptCommand {
    std::vector<std::string> words;
    std::vector<int> lines;
    bool array = false;
};

/// The commands of a launch script in order, as bash runs them (launchScriptWords' rules, each
/// word with its line): empty commands left out; an array the file assigns but never expands
/// is a command of its own (`array` set), placed before the command it is assigned in. False +
/// `error` (with the line) on an unterminated quote, ${ or array.
bool scriptCommands(const std::string& text, std::vector<ScriptCommand>& commands,
                    std::string& error);

/// The argument words of a launch script as bash would pass them: `#` comments, backslash-newline
/// continuations, single and double quotes, backslash escapes, `;` `&&` `||` `|` `&` and newlines
/// between commands. Variables and arrays assigned in the file (NAME=value, export NAME=value,
/// NAME=( ... ), NAME+=( ... )) are expanded where used ($NAME, ${NAME}, ${NAME:-default},
/// "${NAME[@]}"; an unquoted $NAME is split at white space); an array the file never expands
/// is read where it is assigned (a file of only arrays). The words of every command are
/// returned in order, assignments left out. False + `error` (with the line) on an unterminated
/// quote or ${.
bool launchScriptWords(const std::string& text, std::vector<std::string>& words,
                       std::string& error);

}  // namespace tandem::io
