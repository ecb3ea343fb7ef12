#!/bin/sh
# A base backup of Roadpass's PostgreSQL (docs/operations.md#backup-and-restore): everything Roadpass
# keeps, its signing keys included, is in that database. Run nightly by roadpass-backup.timer; with
# WAL archiving beside it, a restore reaches any moment after the oldest backup kept.
#
# - pg_basebackup in tar format, gzip-compressed, with the WAL it needs to be consistent (-X stream),
#   into $BACKUP_DIR/<UTC time>; a failed run leaves only a .partial folder, removed by the next run.
# - Keeps the newest $BACKUP_KEEP backups (7).
# - On success, writes for the node exporter's textfile collector ($TEXTFILE_DIR):
#   roadpass_backup_last_success_timestamp_seconds, roadpass_backup_size_bytes,
#   roadpass_backup_duration_seconds. The alert RoadpassBackupTooOld (deploy/prometheus/fleet-alerts.yml)
#   fires when the newest is older than 26 hours, or when there is none.
#
# Connection: libpq's variables (PGHOST, PGPORT, PGUSER: a role with REPLICATION, straight to
# PostgreSQL, never through PgBouncer). Restore: deploy/roadpass-restore.sh.
set -eu

BACKUP_DIR=${BACKUP_DIR:-/var/backups/roadpass}
BACKUP_KEEP=${BACKUP_KEEP:-7}
TEXTFILE_DIR=${TEXTFILE_DIR:-/var/lib/prometheus/node-exporter}
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}

started=$(date +%s)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$BACKUP_DIR"
rm -rf "$BACKUP_DIR"/*.partial
target="$BACKUP_DIR/$stamp"

"$PG_BIN/pg_basebackup" -D "$target.partial" -Ft -z -X stream -c fast -l "roadpass $stamp" --no-password
mv "$target.partial" "$target"

# The newest $BACKUP_KEEP stay (the names sort by time).
ls -1d "$BACKUP_DIR"/2*Z 2>/dev/null | sort | head -n "-$BACKUP_KEEP" | while read -r old; do
  rm -rf "$old"
done

finished=$(date +%s)
size=$(du -sb "$target" | cut -f1)
if [ -d "$TEXTFILE_DIR" ]; then
  metrics="$TEXTFILE_DIR/roadpass_backup.prom"
  cat >"$metrics.tmp" <<EOF
# HELP roadpass_backup_last_success_timestamp_seconds When the newest base backup finished (deploy/roadpass-backup.sh).
# TYPE roadpass_backup_last_success_timestamp_seconds gauge
roadpass_backup_last_success_timestamp_seconds $finished
# HELP roadpass_backup_size_bytes Size of the newest base backup, compressed.
# TYPE roadpass_backup_size_bytes gauge
roadpass_backup_size_bytes $size
# HELP roadpass_backup_duration_seconds How long the newest base backup took.
# TYPE roadpass_backup_duration_seconds gauge
roadpass_backup_duration_seconds $((finished - started))
EOF
  # The collector never reads a half-written file.
  mv "$metrics.tmp" "$metrics"
fi
echo "roadpass-backup: $target, $size bytes, $((finished - started)) s"
