#!/bin/sh
# Runs a command in a private mount namespace whose /dev/shm is a small tmpfs of its own, so
# that a test can fill it without touching the machine's. Needs root (unshare -m).
# Usage: full_shm.sh SIZE COMMAND [ARGS...]
[ "$(id -u)" = 0 ] || { echo "full_shm.sh: needs root for a private mount namespace: skipped"; exit 77; }
size=$1
shift
exec unshare -m sh -c 'mount -t tmpfs -o size="$0",mode=1777 tmpfs /dev/shm && exec "$@"' "$size" "$@"
