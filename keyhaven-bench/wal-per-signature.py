#!/usr/bin/env python3
# The WAL one signature writes on PostgreSQL, by relation (BENCHMARKS.md, "Audit entries that keep only a hash").
# Runs the load driver (sign_raw_payload at the peak, 64 clients) against JAR on the local cluster; 30 s into the
# warm-up it reads 5 s of WAL records with pg_walinspect (created for the reading and dropped after it: needs a
# superuser), puts each record's bytes on the relation of its first block, and divides by the activities inserted in
# those 5 s (one per signature).
#
#   keyhaven-bench/wal-per-signature.py JAR     (from the repository root, with the bench jar built; JAVA_HOME a
#                                                JDK 25; psql on the PATH)
import collections
import os
import re
import subprocess
import sys
import time

PSQL = ['psql', '-h', '127.0.0.1', '-U', 'postgres', '-AtF', '\t']


def psql(database, sql):
    return subprocess.run(PSQL + ['-d', database, '-c', sql], capture_output=True, text=True, check=True).stdout


def start_driver(jar):
    java = os.path.join(os.environ.get('JAVA_HOME', '/usr/lib/jvm/temurin-25-jdk-amd64'), 'bin', 'java')
    # No auth proxy: its fixed port would clash with any other server on the machine.
    env = dict(os.environ, KEYHAVEN_AUTH_PROXY_PORT='0')
    driver = subprocess.Popen(
        [java, '-jar', 'keyhaven-bench/target/keyhaven-bench.jar', '--jar', jar, '--stores', 'postgres',
         '--scenarios', 'sign_raw_payload', '--concurrency', '64', '--warmup-seconds', '40', '--seconds', '10',
         '--half-load-seconds', '0'],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in driver.stderr:
        if 'closed loop' in line:
            return driver
    sys.exit('the load driver ended before its closed loop started')


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: keyhaven-bench/wal-per-signature.py JAR')
    driver = start_driver(sys.argv[1])
    time.sleep(30)
    database = psql('postgres', "SELECT datname FROM pg_database WHERE datname LIKE 'keyhaven_bench_%'").split()[0]
    psql('postgres', 'CREATE EXTENSION IF NOT EXISTS pg_walinspect')
    try:
        start = psql('postgres', 'SELECT pg_current_wal_lsn()').strip()
        time.sleep(5)
        end = psql('postgres', 'SELECT pg_current_wal_lsn()').strip()
        records = psql('postgres', "SELECT record_length, resource_manager, record_type, coalesce(block_ref, '') "
                       f"FROM pg_get_wal_records_info('{start}', '{end}')")
    finally:
        psql('postgres', 'DROP EXTENSION pg_walinspect')
    names = dict(line.split('\t') for line in psql(
        database, 'SELECT pg_relation_filenode(oid), relname FROM pg_class '
                  'WHERE pg_relation_filenode(oid) IS NOT NULL').splitlines())
    bytes_by_relation = collections.Counter()
    signatures = 0
    full_pages = 0
    for record in records.splitlines():
        length, manager, kind, blocks = record.split('\t', 3)
        first = re.search(r'rel \d+/\d+/(\d+)', blocks)
        relation = names.get(first.group(1), 'relfilenode ' + first.group(1)) if first else manager
        bytes_by_relation[relation] += int(length)
        signatures += relation == 'activities' and manager == 'Heap' and kind.startswith('INSERT')
        full_pages += 'FPW' in blocks
    driver.wait()
    if signatures == 0:
        sys.exit('no activity was inserted in the window')
    total = sum(bytes_by_relation.values())
    print(f'{signatures} signatures, {total} bytes of WAL records: {total / signatures:,.0f} bytes per signature '
          f'({full_pages} records with a full-page image)')
    print('| relation | bytes per signature |\n|---|---:|')
    for relation, size in bytes_by_relation.most_common(12):
        print(f'| `{relation}` | {size / signatures:,.0f} |')


main()
