#!/usr/bin/env bash
# An S3-compatible server for the backup tests (issue 35), on loopback: moto's server (the Python
# package `moto`, with boto3, in this machine's python3) with authentication on, so a request
# signed with a wrong secret is refused (SignatureDoesNotMatch) as AWS does. Its first three
# requests (unauthenticated) make an IAM user with an access key allowed s3:*, and the bucket
# `berth-test` is made with that key. State is in memory: a restart makes a new key.
# Idempotent: reuses a server that answers with the key on file. Called by scripts/test-env.sh start
# (after env.sh is written), or alone; either way it (re)writes its BERTH_TEST_S3_* lines in
# .test-env/env.sh. scripts/test-env.sh stop ends it (.test-env/s3/moto.pid).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STATE=$(readlink -f "$ROOT/.test-env")
DIR="$STATE/s3"
ENV_FILE="$STATE/env.sh"
BUCKET=berth-test
say() { printf '[test-env-s3] %s\n' "$*"; }
pid_of() { if [[ -s "$1" ]]; then tr -dc '0-9' <"$1"; fi; }
pid_is() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null && tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -q -- "$2"; }
port_free() { [[ -z "$(ss -Hlnt "sport = :$1" 2>/dev/null)" ]]; }
answers() { timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

mkdir -p "$DIR"
chmod 0700 "$DIR"
exec 8>"$DIR/lock"
flock -w 60 8 || { say "another test-env-s3.sh holds .test-env/s3/lock"; exit 1; }

PY=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import moto.server, boto3' 2>/dev/null; then PY=$(command -v "$p"); break; fi
done
if [[ -z "$PY" ]]; then
  say "note: no python3 with moto and boto3 here; no S3 server (the S3 backup test fails without one)"
  exit 0
fi

pid=$(pid_of "$DIR/moto.pid")
port=$(pid_of "$DIR/port")
if pid_is "$pid" "$DIR" && [[ -n "$port" && -s "$DIR/credentials" ]] && answers "$port"; then
  say "reusing moto (pid $pid) on 127.0.0.1:$port"
else
  [[ -n "$pid" ]] && pid_is "$pid" "$DIR" && kill "$pid" 2>/dev/null
  rm -f "$DIR/credentials"
  for ((i = 0; i < 200; i++)); do
    port=$((20000 + (RANDOM % 12000)))
    port_free "$port" && break
  done
  echo "$port" >"$DIR/port"
  # "$DIR" rides along as an ignored argument so 'stop' can tell this process is ours.
  INITIAL_NO_AUTH_ACTION_COUNT=3 setsid "$PY" -c 'import sys; from moto.server import main; main(sys.argv[2:])' \
    "$DIR" -H 127.0.0.1 -p "$port" 8>&- 9>&- </dev/null >"$DIR/moto.log" 2>&1 &
  echo $! >"$DIR/moto.pid"
  for ((i = 0; i < 60; i++)); do answers "$port" && break; sleep 0.25; done
  answers "$port" || { say "ERROR: moto did not answer on 127.0.0.1:$port (see .test-env/s3/moto.log)"; exit 1; }
  (
    umask 077
    "$PY" - "http://127.0.0.1:$port" "$BUCKET" >"$DIR/credentials" <<'EOF'
import json, sys
import boto3
endpoint, bucket = sys.argv[1], sys.argv[2]
anon = dict(endpoint_url=endpoint, region_name='us-east-1', aws_access_key_id='setup', aws_secret_access_key='setup')
iam = boto3.client('iam', **anon)
iam.create_user(UserName='berth-test')
key = iam.create_access_key(UserName='berth-test')['AccessKey']
iam.put_user_policy(UserName='berth-test', PolicyName='s3', PolicyDocument=json.dumps(
    {'Version': '2012-10-17', 'Statement': [{'Effect': 'Allow', 'Action': 's3:*', 'Resource': '*'}]}))
s3 = boto3.client('s3', endpoint_url=endpoint, region_name='us-east-1',
                  aws_access_key_id=key['AccessKeyId'], aws_secret_access_key=key['SecretAccessKey'])
s3.create_bucket(Bucket=bucket)
print(key['AccessKeyId'], key['SecretAccessKey'])
EOF
  )
  say "moto S3 (signatures checked) up on 127.0.0.1:$port, bucket $BUCKET"
fi

read -r KEY_ID SECRET <"$DIR/credentials"
touch "$ENV_FILE"
{
  grep -v '^export BERTH_TEST_S3_' "$ENV_FILE" || true
  echo "export BERTH_TEST_S3_ENDPOINT='http://127.0.0.1:$port'"
  echo "export BERTH_TEST_S3_REGION='us-east-1'"
  echo "export BERTH_TEST_S3_BUCKET='$BUCKET'"
  echo "export BERTH_TEST_S3_ACCESS_KEY='$KEY_ID'"
  echo "export BERTH_TEST_S3_SECRET_KEY='$SECRET'"
} >"$ENV_FILE.s3.tmp"
mv -f "$ENV_FILE.s3.tmp" "$ENV_FILE"
