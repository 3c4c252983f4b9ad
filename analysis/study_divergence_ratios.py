"""Barrier/stack cycle ratios of a study_divergence results file, per workload, over
its (mem_latency, scheduler, issue) configurations (docs/studies.md, study 2).
    /usr/bin/python3 analysis/study_divergence_ratios.py results/study_divergence.h5
"""
import sys; sys.path.insert(0,"analysis")
import warpsweep as ws, pandas as pd
pd.set_option("display.width",250)
df=ws.load(sys.argv[1])
df["workload"]=df.workload.astype(str).str.replace("kernels/","",regex=False).str.replace(".yaml","",regex=False)
for c in ["workload","divergence","scheduler","issue"]: df[c]=df[c].astype(str)
k=["workload","mem_latency","scheduler","issue"]+(["seed"] if df.seed.nunique()>1 else [])  # repeats: pair by seed
s=df[df.divergence=="stack"].set_index(k); b=df[df.divergence=="sbi"].set_index(k)
# ratios only where both schemes finished (the stack deadlocks on the spin lock)
ok=(s.status=="ok")&(b.status=="ok")
r=(b.cycles/s.cycles)[ok].rename("ratio")
for w in ["ifelse","varloop","switch","reduce","histogram","warpreduce","vecadd","spinlock"]:
    if w not in r.index.get_level_values(0): print(w, "no configuration where both finished"); continue
    rr=r.xs(w,level=0)
    print(w, "ratio min %.3f max %.3f"%(rr.min(),rr.max()), "lrr/sb L100 stack %s barrier %s"%(s.loc[(w,100,"lrr","scoreboard")].cycles, b.loc[(w,100,"lrr","scoreboard")].cycles),
      "L400 %s / %s"%(s.loc[(w,400,"lrr","scoreboard")].cycles, b.loc[(w,400,"lrr","scoreboard")].cycles),
      "winst s/b %s/%s"%(s.loc[(w,100,"lrr","scoreboard")].warp_insts,b.loc[(w,100,"lrr","scoreboard")].warp_insts), "l1hit %.2f"%b.loc[(w,100,"lrr","scoreboard")].l1_hit_rate)
print("switch, barrier/stack per configuration:"); print(r.xs("switch",level=0).sort_values().to_string())
print("barrier spinlock cycles range", b.xs("spinlock",level=0).cycles.min(), b.xs("spinlock",level=0).cycles.max(), "status stack", set(s.xs("spinlock",level=0).status))
