#!/bin/sh
# Restores a base backup of deploy/roadpass-backup.sh into a new PostgreSQL data folder
# (docs/operations.md#backup-and-restore):
#
#   roadpass-restore.sh BACKUP DATA_DIR                      a copy as of the backup's end
#   roadpass-restore.sh BACKUP DATA_DIR --standby CONNINFO [--slot NAME]
#                                                          a replica that streams from the primary
#
# Then start PostgreSQL on DATA_DIR (pg_ctl -D DATA_DIR start, or the cluster's service). For a moment
# after the backup, add restore_command and recovery_target_time to DATA_DIR/postgresql.auto.conf and
# create DATA_DIR/recovery.signal before the start. DATA_DIR must not exist or be empty. Run as root,
# the folder is handed to the postgres user.
set -eu

usage() {
  echo "usage: $0 BACKUP DATA_DIR [--standby CONNINFO [--slot NAME]]" >&2
  exit 64
}
[ $# -ge 2 ] || usage
backup=$1
data=$2
shift 2
standby=
slot=
while [ $# -gt 0 ]; do
  case $1 in
  --standby) [ $# -ge 2 ] || usage; standby=$2; shift 2 ;;
  --slot) [ $# -ge 2 ] || usage; slot=$2; shift 2 ;;
  *) usage ;;
  esac
done
[ -z "$slot" ] || [ -n "$standby" ] || usage

if [ ! -f "$backup/base.tar.gz" ] || [ ! -f "$backup/pg_wal.tar.gz" ]; then
  echo "roadpass-restore: $backup holds no base.tar.gz and pg_wal.tar.gz of roadpass-backup.sh" >&2
  exit 66
fi
if [ -e "$data" ] && [ -n "$(ls -A "$data")" ]; then
  echo "roadpass-restore: $data is not empty" >&2
  exit 73
fi

mkdir -p "$data"
chmod 700 "$data"
tar -xzf "$backup/base.tar.gz" -C "$data"
tar -xzf "$backup/pg_wal.tar.gz" -C "$data/pg_wal"

# Debian's clusters keep postgresql.conf and pg_hba.conf in /etc/postgresql/<version>/<cluster>, so a
# backup of one holds neither: the copy gets PostgreSQL's defaults and local connections only (peer on
# the socket, scram-sha-256 on loopback). Put the cluster's own files in place before it serves.
for conf in postgresql.conf pg_hba.conf pg_ident.conf; do
  [ -e "$data/$conf" ] && continue
  case $conf in
  postgresql.conf) echo "# Written by roadpass-restore.sh: the backup held no postgresql.conf." ;;
  pg_hba.conf)
    echo "# Written by roadpass-restore.sh: the backup held no pg_hba.conf."
    echo "local all all peer"
    echo "local replication all peer"
    echo "host all all 127.0.0.1/32 scram-sha-256"
    echo "host all all ::1/128 scram-sha-256"
    ;;
  pg_ident.conf) echo "# Written by roadpass-restore.sh: the backup held no pg_ident.conf." ;;
  esac >"$data/$conf"
  echo "roadpass-restore: the backup held no $conf; a minimal one is written (copy the cluster's own)" >&2
done

if [ -n "$standby" ]; then
  # A quote in the connection string is doubled, as PostgreSQL's configuration files read it.
  quoted=$(printf '%s' "$standby" | sed "s/'/''/g")
  {
    echo "primary_conninfo = '$quoted'"
    [ -z "$slot" ] || echo "primary_slot_name = '$slot'"
  } >>"$data/postgresql.auto.conf"
  touch "$data/standby.signal"
fi

if [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1; then
  chown -R postgres:postgres "$data"
fi
echo "roadpass-restore: $backup restored into $data${standby:+ as a standby}"
