"""Setuptools' package list, with one mapping pyproject.toml cannot express next to a package search.

Everything else (metadata, dependencies, scripts) is in pyproject.toml. The repository's top-level ``resources/``
(icons, the Linux desktop entry and AppStream metainfo) goes into the wheel as ``inspector/_resources``, where
``inspector.resource_files`` finds it; the sdist carries it as ``resources/`` (MANIFEST.in).
"""

from setuptools import find_namespace_packages, find_packages, setup

# resources/ and its folders are data, listed as packages only so that setuptools ships them without a warning
DATA_PACKAGES = ["inspector._resources", *(f"inspector._resources.{p}" for p in find_namespace_packages("resources"))]

setup(
    packages=[*find_packages(include=["inspector", "inspector.*"]), *DATA_PACKAGES],
    package_dir={"inspector._resources": "resources"},
    package_data={"inspector._resources": ["**/*"]},
)
