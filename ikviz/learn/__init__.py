"""Learners on kernels and explicit feature maps: online OGD (FOGD, NOGD, IK+OGD, RandLocal+OGD) and SVM helpers."""

from .online import METHODS, StreamResult, encode_labels, fogd, ik_ogd, nogd, ogd_pass, randlocal_ogd

__all__ = ["METHODS", "StreamResult", "encode_labels", "fogd", "nogd", "ik_ogd", "randlocal_ogd", "ogd_pass"]
