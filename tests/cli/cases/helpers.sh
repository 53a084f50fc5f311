# Helpers for case scripts (README.md): source "$CASES/helpers.sh".

# same_as_batch OP ARGS_JSON CLI_ARGS...: the subcommand CLI_ARGS with --format json prints exactly
# the "result" of the batch request {"id":1,"op":OP,"args":ARGS_JSON}; else says both and fails.
same_as_batch() {
  local op=$1 args=$2
  shift 2
  local cli batch
  cli=$(layoutctl "$@" --format json 2>&1)
  batch=$(printf '{"id":1,"op":"%s","args":%s}\n' "$op" "$args" | layoutctl batch)
  if [[ -n $cli && $batch == "{\"id\":1,\"result\":$cli}" ]]; then
    return 0
  fi
  echo "cli '${cli:0:300}' vs batch '${batch:0:300}'"
  return 1
}

# jq_str TEXT: TEXT as a JSON string (the encodings used here hold no quotes or backslashes).
jq_str() { printf '"%s"' "$1"; }
