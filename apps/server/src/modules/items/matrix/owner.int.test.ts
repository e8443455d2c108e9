import { itemEndpointMatrix } from '../../../testing/item-matrix.ts';

itemEndpointMatrix('owner');
