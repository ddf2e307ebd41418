#!/usr/bin/env bash
# The man page and the bash completion of sonicsim, both generated from its own --help (so they cannot drift
# from the options): OUT/sonicsim.1 by Debian's help2man, with every subcommand's help as a COMMANDS section,
# and OUT/sonicsim.bash, which completes subcommands, their options and file names.
# Usage: command_docs.sh SONICSIM OUT   (run by the build; `cmake --install` installs both)
set -euo pipefail
binary=$(realpath "$1")
out=$2
mkdir -p "$out"
# Run as "sonicsim" (argv[0]), so that the usage lines name the command, not the build tree's path.
wrapper=$(mktemp -d)
trap 'rm -rf "$wrapper"' EXIT
printf '#!/usr/bin/env bash\nexec -a sonicsim "%s" "$@"\n' "$binary" >"$wrapper/sonicsim"
chmod +x "$wrapper/sonicsim"
sonicsim=$wrapper/sonicsim
# The subcommands as --help lists them, so a new command is documented and completed without editing this.
subcommands_of() { "$sonicsim" "$@" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && /^  [a-z]/ {print $1}'; }
mapfile -t commands < <(subcommands_of)
mapfile -t import_commands < <(subcommands_of import)
((${#commands[@]} >= 12 && ${#import_commands[@]} >= 3)) || {
  echo "command_docs.sh: could not read the subcommands from sonicsim --help" >&2
  exit 1
}

include=$wrapper/include
{
  echo "[COMMANDS]"
  for command in "${commands[@]}"; do
    echo ".SS sonicsim $command"
    echo ".nf"
    "$sonicsim" "$command" --help | sed 's/\\/\\\\/g; s/^\./\\\&./'
    echo ".fi"
  done
  for command in "${import_commands[@]}"; do
    echo ".SS sonicsim import $command"
    echo ".nf"
    "$sonicsim" import "$command" --help | sed 's/\\/\\\\/g; s/^\./\\\&./'
    echo ".fi"
  done
  echo "[EXIT STATUS]"
  echo "0 success; 1 a run failed, a validation case failed or results are incomplete; 2 bad input (scenario,"
  echo "option, data file or output directory), with the file, line and key named on stderr; 3 plan found that"
  echo "no configuration meets the targets (plan.json says why); 130 interrupted (Ctrl-C or SIGTERM while simulations"
  echo "ran: the running ones are stopped and not counted; a sweep keeps its finished points and a plan its finished"
  echo "simulations for --resume)."
  echo "[SEE ALSO]"
  echo "The README and docs/ of the sonicsim repository: scenario reference, model, validation."
} >"$include"
# The version alone in the footer (--version also names SimGrid and the batching rule, too long for it).
help2man --no-info --no-discard-stderr --section=1 --include="$include" \
  --version-string="$("$sonicsim" --version | awk '{print $2}')" \
  --name="simulate grid jobs sending ML inference to remote GPU (Triton) servers" \
  "$sonicsim" >"$out/sonicsim.1"

# Completion: the options of each subcommand, read from its help (the words that start with a dash).
options_of() { "$sonicsim" "$@" --help | grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z0-9-]*' | tr -d ' ,' | sort -u | tr '\n' ' '; }
{
  echo "# bash completion for sonicsim, generated from its --help by scripts/command_docs.sh"
  echo "_sonicsim() {"
  echo '  local word=${COMP_WORDS[COMP_CWORD]} command=${COMP_WORDS[1]:-} options=""'
  echo '  if ((COMP_CWORD == 1)); then'
  echo "    COMPREPLY=(\$(compgen -W \"${commands[*]} --help --version --cfg\" -- \"\$word\"))"
  echo '    return'
  echo '  fi'
  echo '  case $command in'
  for command in "${commands[@]}"; do
    if [[ $command == import ]]; then
      echo "  import)"
      echo '    if ((COMP_CWORD == 2)); then'
      echo "      COMPREPLY=(\$(compgen -W \"${import_commands[*]}\" -- \"\$word\"))"
      echo '      return'
      echo '    fi'
      echo '    case ${COMP_WORDS[2]} in'
      for sub in "${import_commands[@]}"; do
        echo "    $sub) options=\"$(options_of import "$sub")\" ;;"
      done
      echo '    esac'
      echo '    ;;'
    else
      echo "  $command) options=\"$(options_of "$command")\" ;;"
    fi
  done
  echo '  esac'
  echo '  if [[ $word == -* ]]; then'
  echo '    COMPREPLY=($(compgen -W "$options" -- "$word"))'
  echo '  else'
  echo '    COMPREPLY=($(compgen -f -- "$word"))'
  echo '  fi'
  echo "}"
  echo "complete -o filenames -F _sonicsim sonicsim"
} >"$out/sonicsim.bash"
