import { groupMatrix } from '../../../testing/item-matrix.ts';

groupMatrix();
