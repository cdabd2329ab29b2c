# The PyTorch side of rocops' train BenchmarkStep/loss=ce (docs/benchmarks.md): MLP 30->64->1 (ReLU), batches
# with 10% positives, BCE-with-logits mean, Adam lr 1e-3, 2 threads. Prints wall and process
# CPU time per step (median of reps) for every dtype and batch size asked for.
#
#   ce_step.py [steps] [reps] [dtypes] [batches]
#
# dtypes and batches are comma-separated lists: by default float64,float32 and 1024, the
# comparison's original one; docs/pytorch/README.md gives the commands of the runs reported.
import sys, time, statistics
import torch
torch.set_num_threads(2)
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 300
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
dtypes = [getattr(torch, d) for d in (sys.argv[3] if len(sys.argv) > 3 else "float64,float32").split(",")]
batches = [int(b) for b in (sys.argv[4] if len(sys.argv) > 4 else "1024").split(",")]
for batch in batches:
    for dt in dtypes:
        torch.manual_seed(1)
        x = torch.randn(batch, 30, dtype=dt)
        y = (torch.rand(batch) < 0.1).to(dt)
        x[y == 1] += 1
        model = torch.nn.Sequential(torch.nn.Linear(30, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1)).to(dt)
        init = {k: v.clone() for k, v in model.state_dict().items()}
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        lossf = torch.nn.BCEWithLogitsLoss()
        def step():
            opt.zero_grad()
            loss = lossf(model(x).squeeze(1), y)
            loss.backward()
            opt.step()
        for _ in range(50):
            step()
        walls, cpus = [], []
        for _ in range(reps):
            model.load_state_dict(init)  # every round from the same weights, as BenchmarkStep's steps
            w0, c0 = time.perf_counter(), time.process_time()
            for _ in range(steps):
                step()
            walls.append((time.perf_counter() - w0) / steps * 1e9)
            cpus.append((time.process_time() - c0) / steps * 1e9)
        name = str(dt).split('.')[-1]
        print(f"torch {name} ce step batch={batch}: wall {statistics.median(walls):.0f} ns/op, cpu {statistics.median(cpus):.0f} cpu-ns/op (reps {[round(w) for w in walls]})")
