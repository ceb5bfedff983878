#!/usr/bin/env bash
# A one-node Slurm cluster for a test, from Debian's slurm-wlm and munge: munged with a key of its
# own, slurmctld and slurmd, all under DIR and stopped by `slurm_cluster.sh stop DIR`. The node
# declares two GPUs as a generic resource (count only: no device files), so a job that asks for
# --gres=gpu:1 runs on it, two at a time, with or without a real GPU.
#
#   slurm_cluster.sh start DIR   prints the line to eval: export SLURM_CONF=DIR/slurm.conf
#   slurm_cluster.sh stop DIR
# Exit code 77 from start: Slurm or munge is not installed, or this is not root (slurmd must run
# as root to start jobs); the reason is printed.
set -euo pipefail
cmd=$1
dir=$(realpath -m "$2")

stop() {
  for daemon in slurmd slurmctld munged; do
    if [ -f "$dir/$daemon.pid" ]; then
      kill "$(cat "$dir/$daemon.pid")" 2>/dev/null || true
      rm -f "$dir/$daemon.pid"
    fi
  done
}

if [ "$cmd" = stop ]; then
  stop
  exit 0
fi

for tool in munged slurmctld slurmd sbatch squeue scontrol; do
  PATH="$PATH:/usr/sbin" command -v "$tool" >/dev/null ||
    { echo "SKIP: $tool is not installed (apt install slurm-wlm munge)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: slurmd must run as root to start jobs"; exit 77; }
export PATH="$PATH:/usr/sbin"

rm -rf "$dir"
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 711 "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed"

node=$(hostname -s)
cpus=$(nproc)
cat >"$dir/slurm.conf" <<CONF
ClusterName=test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
GresTypes=gpu
KillWait=5
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 Gres=gpu:2 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
printf "NodeName=$node Name=gpu File=/dev/null\nNodeName=$node Name=gpu File=/dev/zero\n" >"$dir/gres.conf"
export SLURM_CONF="$dir/slurm.conf"
slurmctld
slurmd
for _ in $(seq 60); do
  if sinfo -h -o %T 2>/dev/null | grep -q idle; then
    echo "export SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  sleep 1
done
echo "the test's Slurm did not come up; its logs:" >&2
tail -n 20 "$dir"/*.log >&2
stop
exit 1
