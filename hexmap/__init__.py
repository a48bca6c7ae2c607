"""The hex island: coordinates, the island graph, boards, generator, landmarks and SVG."""

from errors import IllegalAction, InvalidInput, NotFound, ProjectError
from hexmap.drive import DRIVE_POINTS, DriveCosts, drive_costs
from hexmap.hexes import DIRECTIONS, Hex, distance, hex_range, neighbours, ring, rotate
from hexmap.island import Island, Landmark, landmark_violations
from hexmap.island_json import island_from_json, island_to_json, parse_space
from hexmap.terrain import DRY_LAND, LANDMARK_KINDS, TERRAINS

__all__ = [
    "DIRECTIONS",
    "DRIVE_POINTS",
    "DRY_LAND",
    "DriveCosts",
    "LANDMARK_KINDS",
    "TERRAINS",
    "Hex",
    "IllegalAction",
    "InvalidInput",
    "Island",
    "Landmark",
    "NotFound",
    "ProjectError",
    "distance",
    "drive_costs",
    "hex_range",
    "island_from_json",
    "island_to_json",
    "landmark_violations",
    "neighbours",
    "parse_space",
    "ring",
    "rotate",
]
