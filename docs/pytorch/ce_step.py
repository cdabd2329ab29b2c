# The PyTorch side of rocops' train BenchmarkStep/loss=ce (docs/benchmarks.md): MLP 30->64->1 (ReLU), batch 1024 with
# 10% positives, BCE-with-logits mean, Adam lr 1e-3, 2 threads. Prints wall and process CPU
# time per step (median of reps), for float64 and float32.
import sys, time, statistics
import torch
torch.set_num_threads(2)
steps, reps = int(sys.argv[1]) if len(sys.argv) > 1 else 300, int(sys.argv[2]) if len(sys.argv) > 2 else 3
for dt in (torch.float64, torch.float32):
    torch.manual_seed(1)
    x = torch.randn(1024, 30, dtype=dt)
    y = (torch.rand(1024) < 0.1).to(dt)
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
        model.load_state_dict(init)  # every step from the same weights, as BenchmarkStep
        w0, c0 = time.perf_counter(), time.process_time()
        for _ in range(steps):
            step()
        walls.append((time.perf_counter() - w0) / steps * 1e9)
        cpus.append((time.process_time() - c0) / steps * 1e9)
    print(f"torch {str(dt).split('.')[-1]} ce step: wall {statistics.median(walls):.0f} ns/op, cpu {statistics.median(cpus):.0f} cpu-ns/op (reps {[round(w) for w in walls]})")
