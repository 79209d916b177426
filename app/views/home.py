"""Home: what Isolation Kernel is and what each page shows."""

import streamlit as st

import ui

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

st.subheader("Pages")
st.markdown(
    """
| page | what it shows | source |
|---|---|---|
| **Kernel shapes** | IK (Voronoi and iForest), Laplacian and RBF contours around a point you choose on uniform 2-D data; the cells of one partitioning; how ψ sharpens the kernel | Ting et al. 2018, Fig. 1, Fig. 3 |
| **Density adaptivity** | four quadrants of different density: equal-distance pairs are more IK-similar where data are sparse, Laplacian and RBF cannot tell; the effect over ψ; similarity against density; contours on a t-SNE view of real data; IK ≈ Laplacian on uniform data | Ting et al. 2018, Fig. 2, Fig. 3, Fig. 4 |
| **Curse of dimensionality** | nearest-neighbour instability (N_eps, variance) of GK, IK, ℓ_p, SNN and adaptive GK as d grows to 10,000; hubness on uniform data; brute force vs ball-tree indexing and precision@5 | Ting et al. 2021, Fig. 1, Tables 1–2, App. D–E |
| **t-SNE** | t-SNE with Gaussian vs IK affinities side by side on the w-Gaussians (w = 1 … 5,000, equal or unequal variance) or real data; separation scores; watch the optimisation; the paper's perplexity/ψ search range | Ting et al. 2021, §4.2.4, Tables 5–6 |
| **Classification lab** | SVM with RBF, L_ψ and IK kernels, linear SVM on IK features; online FOGD, NOGD, IK+OGD, RandLocal+OGD | Ting 2018/2021, Lu 2016, Wang 2017 |
| **Clustering lab** | spectral clustering (IK, Gaussian, adaptive Gaussian), density peaks (distance, 1 − IK, 1 − AG) with its decision graph, and k-means on raw, IK and RandLocal features; AMI/NMI per method at one setting or best over the parameter grid; w-Gaussians, density-ratio and real data | Ting et al. 2021, §4.2.2, Fig. 2, Table 3; Wang et al. 2017, §4.4 |
| **Claims** | every claim of the four papers in one table: the paper's number beside ikviz's under the paper's protocol, a verdict computed from the numbers (holds · holds, smaller · setting-dependent · does not reproduce), what explains a difference, and a link to the page that shows it | all four papers |
| **Your data** | upload a CSV or LIBSVM file (or pick one of 27 bundled datasets): a summary, then IK vs Gaussian on nearest-neighbour instability and hubness, SVM, t-SNE and spectral clustering, each on demand | — |

Every page keeps its settings in the link: copy the address bar to share exactly what you see.
Switch on **Presentation mode** in the sidebar to hide the controls for projection.
Everything shown here can also be computed from Python (`import ikviz`) or the command line
(`ikviz reproduce --list`).
"""
)
