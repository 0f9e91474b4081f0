* A three-variable knapsack-like MIP: maximise 5x + 4y + 3z subject to
* 2x + 3y + z <= 5, 4x + y + 2z <= 11, 3x + 4y + 2z <= 8, x, y, z in {0,1,2,...}.
* LP optimum 13 at (2, 0, 1); IP optimum 13 at (2, 0, 1).
NAME          TINY
OBJSENSE
    MAX
ROWS
 N  profit
 L  c1
 L  c2
 L  c3
COLUMNS
    MARKER                 'MARKER'                 'INTORG'
    x         profit         5   c1             2
    x         c2             4   c3             3
    y         profit         4   c1             3
    y         c2             1   c3             4
    z         profit         3   c1             1
    z         c2             2   c3             2
    MARKER                 'MARKER'                 'INTEND'
RHS
    rhs       c1             5   c2            11
    rhs       c3             8
BOUNDS
 UP bnd       x             10
 UP bnd       y             10
 UP bnd       z             10
ENDATA
