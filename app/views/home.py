"""Home: what Isolation Kernel is (its definition as a formula and a picture), the papers, what each page shows."""

import io

import numpy as np
import streamlit as st

import ui

#: the four papers the app reproduces, with the address of each
PAPERS = (
    ("Ting, Zhu & Zhou (2018). Isolation Kernel and Its Effect on SVM. KDD 2018",
     "https://doi.org/10.1145/3219819.3219990"),
    ("Ting, Washio, Zhu & Xu (2021). Breaking the curse of dimensionality with Isolation Kernel. arXiv:2109.14198",
     "https://arxiv.org/abs/2109.14198"),
    ("Lu, Hoi, Wang, Zhao & Liu (2016). Large Scale Online Kernel Learning. JMLR 17(47)",
     "https://jmlr.org/papers/v17/14-148.html"),
    ("Wang, Aggarwal & Liu (2017). Randomized Feature Engineering as a Fast and Accurate Alternative to Kernel "
     "Methods. KDD 2017", "https://doi.org/10.1145/3097983.3098001"),
)
DEFINITION = (r"K_\psi(x, y \mid D) \;=\; \mathbb{E}_{H \sim \mathcal{H}_\psi(D)}"
              r"\big[\mathbb{1}(x, y \in \theta \mid \theta \in H)\big]"
              r"\;\approx\; \frac{1}{t} \sum_{i=1}^{t} \mathbb{1}(x, y \in \theta \mid \theta \in H_i)")


@st.cache_resource(show_spinner=False)
def definition_picture(psi: int = 8, t: int = 3, seed: int = 4, size: int = 260) -> tuple[bytes, int]:
    """t Voronoi partitionings of ψ points drawn from the data, x and y marked: a PNG and how many share a cell."""
    from PIL import Image, ImageDraw

    rng = np.random.default_rng(seed)
    data = np.vstack([rng.normal((0.3, 0.35), 0.12, (120, 2)), rng.uniform(0, 1, (60, 2))]).clip(0, 1)
    x, y = np.array([0.66, 0.70]), np.array([0.80, 0.78])
    grid = (np.stack(np.meshgrid(np.arange(size), np.arange(size)), -1).reshape(-1, 2) + 0.5) / size
    pale = np.array([[251, 180, 174], [179, 205, 227], [204, 235, 197], [222, 203, 228], [254, 217, 166],
                     [255, 255, 204], [229, 216, 189], [253, 218, 236], [242, 242, 242], [200, 230, 240]])
    panels, same = [], 0
    for _ in range(t):
        centres = data[rng.choice(len(data), psi, replace=False)]
        cell = ((grid[:, None] - centres[None]) ** 2).sum(-1).argmin(1)
        image = Image.fromarray(pale[cell % len(pale)].reshape(size, size, 3).astype(np.uint8)[::-1])
        draw = ImageDraw.Draw(image)
        to_px = lambda p: (p[0] * size, (1 - p[1]) * size)   # noqa: E731
        for d in data:
            cx, cy = to_px(d)
            draw.ellipse((cx - 1.5, cy - 1.5, cx + 1.5, cy + 1.5), fill=(120, 120, 120))
        for c in centres:
            cx, cy = to_px(c)
            draw.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=(0, 0, 0))
        for point, colour in ((x, (215, 25, 28)), (y, (43, 131, 186))):
            cx, cy = to_px(point)
            draw.rectangle((cx - 6, cy - 6, cx + 6, cy + 6), fill=colour, outline=(0, 0, 0))
        inside = ((np.stack([x, y])[:, None] - centres[None]) ** 2).sum(-1).argmin(1)
        same += int(inside[0] == inside[1])
        panels.append(image)
    picture = Image.new("RGB", (t * size + (t - 1) * 12, size), (255, 255, 255))
    for i, image in enumerate(panels):
        picture.paste(image, (i * (size + 12), 0))
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return out.getvalue(), same


ui.page_header("ikviz — see what the Isolation Kernel does", "")

st.markdown(
    """
**Isolation Kernel (IK)** measures how similar two points are by asking how often random
partitionings of the space, built from the data itself, put them in the same cell.

1. Draw **ψ** points at random from the data. They cut the space into ψ cells, each isolating one
   of them: either the **Voronoi** cells around each point (a point belongs to its nearest sampled
   point), or the leaves of an **isolation tree** (random axis-parallel cuts until every sampled
   point stands alone).
2. Repeat **t** times with fresh random samples.
3. The similarity of *x* and *y* is the fraction of the t partitionings in which they share a cell.

Because cells are small where the data are dense and large where the data are sparse, two points
in a **sparse region are more similar** than two points the same distance apart in a **dense
region**. Gaussian and Laplacian kernels give both pairs the same value: they ignore the data.

**What ψ and t do.** ψ sets the sharpness: more cells means smaller cells, so similarity falls
off faster with distance (on uniform data IK behaves like a Laplacian kernel with
λ = log ψ / d). t sets the precision: IK is an average over t partitionings, so larger t gives
smoother, less noisy similarities, and each point gets a sparse feature vector with exactly t ones.
"""
)

st.subheader("The definition")
st.latex(DEFINITION)
png, same = definition_picture()
st.image(png, caption=f"Three partitionings H₁, H₂, H₃ (t = 3) of ψ = 8 points (black) drawn from the data (grey): "
                      f"x (red) and y (blue) share a cell in {same} of them, so K(x, y) ≈ {same}/3. Where the data "
                      f"are dense the sampled points are close and the cells small.")
st.markdown("Each partitioning also gives every point a one-hot vector of its cell: with t of them, IK is the "
            "dot product of two points' feature vectors divided by t (a sparse, exact feature map).")

st.subheader("The papers")
st.markdown("\n".join(f"- [{title}]({url})" for title, url in PAPERS))

st.subheader("Pages")
st.markdown(
    """
| page | what it shows | source |
|---|---|---|
| **Kernel shapes** | IK (Voronoi and iForest), Laplacian and RBF contours around a point you choose on uniform 2-D data; the cells of one partitioning; how ψ sharpens the kernel, and IK over ψ side by side | Ting et al. 2018, Fig. 1, Fig. 3 |
| **Density adaptivity** | four quadrants of different density: equal-distance pairs are more IK-similar where data are sparse, Laplacian and RBF cannot tell; the effect over ψ; similarity against density; contours on a t-SNE view of real data; IK ≈ Laplacian on uniform data | Ting et al. 2018, Fig. 2, Fig. 3, Fig. 4 |
| **Curse of dimensionality** | nearest-neighbour instability (N_eps, variance) of GK, IK, ℓ_p, SNN and adaptive GK as d grows to 10,000; hubness on uniform data; brute force vs ball-tree indexing and precision@5 | Ting et al. 2021, Fig. 1, Tables 1–2, App. D–E |
| **t-SNE** | t-SNE with Gaussian vs IK affinities side by side on the w-Gaussians (w = 1 … 5,000, equal or unequal variance) or real data; separation scores; watch the optimisation; the paper's perplexity/ψ search range | Ting et al. 2021, §4.2.4, Tables 5–6 |
| **Classification lab** | SVM with RBF, L_ψ and IK kernels, linear SVM on IK features; online FOGD, NOGD, IK+OGD, RandLocal+OGD | Ting 2018/2021, Lu 2016, Wang 2017 |
| **Clustering lab** | spectral clustering (IK, Gaussian, adaptive Gaussian), density peaks (distance, 1 − IK, 1 − AG) with its decision graph, and k-means on raw, IK and RandLocal features; AMI/NMI per method at one setting or best over the parameter grid; w-Gaussians, density-ratio and real data | Ting et al. 2021, §4.2.2, Fig. 2, Table 3; Wang et al. 2017, §4.4 |
| **Claims** | every claim of the four papers in one table: the paper's number beside ikviz's under the paper's protocol, a verdict computed from the numbers (holds · holds, smaller · protocol unspecified · too close to call on this machine · does not reproduce · data not available here), what explains a difference, and a link to the page that shows it | all four papers |
| **Your data** | upload a CSV or LIBSVM file (or pick one of 27 bundled datasets): a summary, then IK vs Gaussian on nearest-neighbour instability and hubness, SVM, t-SNE and spectral clustering, each on demand | — |

Every page keeps its settings in the link: copy the address bar to share exactly what you see.
Switch on **Presentation mode** in the sidebar to hide the controls for projection.
Everything shown here can also be computed from Python (`import ikviz`) or the command line
(`ikviz reproduce --list`).
"""
)
