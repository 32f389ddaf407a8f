"""The plan of docs/distributed.md: time, network, memory and disk a level for K machines,
from the published level sizes in data/ and the rates `godsearch bench --section distributed`
measured on this 2-core machine (constants below). Run from the repository root:
python3 docs/distributed-plan.py"""
import math
def load(f,col=1):
    out=[]
    for l in open(f):
        if l.startswith('#') or not l.strip(): continue
        p=l.split(); out.append(p[col])
    return out
GiB=2**30
SPILL_BYTES=2.0
CORES=2; RAM=24*GiB; BW=1.25e9  # 10 Gb/s
def fmt(b):
    for u,n in (('TB',1e12),('GB',1e9),('MB',1e6)):
        if b>=n: return f"{b/n:.1f} {u}"
    return f"{b/1e3:.0f} kB"
def ftime(s):
    if s>=86400: return f"{s/86400:.1f} d"
    if s>=3600: return f"{s/3600:.1f} h"
    if s>=60: return f"{s/60:.1f} min"
    return f"{s:.1f} s"
def plan(name, L, state_bytes, r, cx, kappa, b2, Ks):
    rows=[]
    summary=[]
    for K in Ks:
        bK=b2+2/7*math.log2(K/2)
        tot=0; peakmem=0; peakdisk=0; peaknet=0
        per={}
        for d in range(1,len(L)):
            Ld=L[d]
            V=kappa*Ld*(K-1)/K*bK
            sent=kappa*Ld*(K-1)/K
            t=Ld/(K*CORES*r) + sent/K*cx/CORES + (V/K)/BW
            mem=state_bytes*((L[d-2] if d>=2 else 0)+L[d-1]+2*kappa*Ld)/K
            # Levels on disk (--workdir): four levels kept, and the level's candidates spilled
            # as sorted runs of varint gaps, about SPILL_BYTES a candidate, at worst all of them.
            disk=bK*sum(L[max(0,d-3):d+1])/K + SPILL_BYTES*kappa*Ld/K
            tot+=t; peakmem=max(peakmem,mem); peakdisk=max(peakdisk,disk); peaknet=max(peaknet,V)
            per[d]=(t,V,mem,disk)
        summary.append((K,tot,peakmem,peakdisk,peaknet))
        rows.append((K,per))
    return summary,rows
t=[int(x) for x in load('data/sliding-4x4.txt')]
# 4x4: 10.0 M positions/s a core in one process, 57 ns of core time a state sent, 1.46
# states listed a new position, 1.68 bytes a state sent with 2 processes (bench, depth 25).
s,rows=plan("4x4",t,8,10.0e6,57e-9,1.46,1.68,[4,16,64])
print("## 4x4 full")
print("| K | total time | peak memory a machine | peak disk a machine | largest level's network volume |")
for K,tot,pm,pd,pn in s: print(f"| {K} | {ftime(tot)} | {fmt(pm)} | {fmt(pd)} | {fmt(pn)} |")
print()
print("| depth | positions | " + " | ".join(f"K={K}: time, network, memory, disk" for K,_ in rows)+" |")
for d in [30,35,40,45,50,52,55,60,65,70]:
    print(f"| {d} | {t[d]:,} | " + " | ".join(f"{ftime(per[d][0])}, {fmt(per[d][1])}, {fmt(per[d][2])}, {fmt(per[d][3])}" for K,per in rows)+" |")
c=[int(x) for x in load('data/cube3x3x3-htm.txt',2)[:12]]
# 3x3x3 classes: 30,035,907 to depth 8 in 4.03 s in one process (3.7 M a second a core),
# 5.78 s with 2 processes sending 17,746,417 (197 ns of core time each) at 8.8 bytes.
s,rows=plan("cube",c,16,3.7e6,197e-9,1.18,8.8,[4,16,64])
print("## cube to 11")
for K,tot,pm,pd,pn in s: print(f"| {K} | {ftime(tot)} | {fmt(pm)} | {fmt(pd)} | {fmt(pn)} |")
for d in [8,9,10,11]:
    print(f"| {d} | {c[d]:,} | " + " | ".join(f"{ftime(per[d][0])}, {fmt(per[d][1])}, {fmt(per[d][2])}, {fmt(per[d][3])}" for K,per in rows)+" |")
